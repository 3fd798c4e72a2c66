// Rule options in the interface language: label, help and choice names come from the
// string tables (opt_*, help_*, choice_*); the rule id (M-3, T-6…) from the server's help.

import { t } from "./i18n.js";

// An option's label and help in the interface language; the rule id comes from the server.
export function optionLabel(name) {
  const key = `opt_${name}`;
  const text = t(key);
  return text === key ? name : text;
}

export function optionHelp(opt) {
  const key = `help_${opt.name}`;
  const text = t(key);
  const rule = /^([MT]-\d+(?:\s*(?:…|,|\/)\s*[MT]-\d+)*)/.exec(opt.help || "");
  if (text === key) return opt.help;
  return rule ? `${text} (${rule[1]})` : text;
}

export function choiceLabel(value) {
  if (value === true) return t("yes");
  if (value === false) return t("no");
  if (value === null || value === undefined) return t("none");
  const key = `choice_${String(value).replace("+", "_")}`;
  const text = t(key);
  return text === key ? String(value) : text;
}
