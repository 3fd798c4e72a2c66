"""Rule options shared machinery: presets plus named overrides, checked strictly.

Each game defines a frozen dataclass of options and a dict of presets; a table's rules
are a preset with some options changed by name (``{"preset": "nepali", "seen_fee": 5}``).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar

from rami.errors import InputError
from rami.views import OptionValue, RulesJson

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T", bound="DataclassInstance")


_HINTS: dict[object, dict[str, object]] = {}


def _field_hints(cls: object) -> dict[str, object]:
    """The field types of an options class, read once: every new deal built from a rules
    object in JSON asks for them, and ``typing.get_type_hints`` evaluates the annotations
    anew each time (about a millisecond)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _check_value(
    name: str, value: object, hint: object, choices: Mapping[str, tuple[OptionValue, ...]]
) -> object:
    if name in choices:
        if value not in choices[name]:
            allowed = ", ".join(str(c) for c in choices[name])
            raise InputError(f"option '{name}' must be one of {allowed}, not {value!r}")
        return value
    text = str(hint)
    if text in ("bool", "<class 'bool'>"):
        if not isinstance(value, bool):
            raise InputError(f"option '{name}' must be true or false, not {value!r}")
        return value
    optional = "None" in text
    if value is None:
        if optional:
            return None
        raise InputError(f"option '{name}' may not be null")
    if "int" in text:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"option '{name}' must be a whole number, not {value!r}")
        if value < 0:
            raise InputError(f"option '{name}' must not be negative, not {value}")
        return value
    if "str" in text and not isinstance(value, str):
        raise InputError(f"option '{name}' must be text, not {value!r}")
    return value


def build_rules(
    cls: type[T],
    presets: Mapping[str, T],
    spec: object,
    choices: Mapping[str, tuple[OptionValue, ...]] | None = None,
) -> T:
    """Rules from a preset name or ``{"preset": name, option: value, …}``.

    Unknown presets, unknown option names and badly typed values raise ``InputError``.
    """
    choices = choices or {}
    if isinstance(spec, cls):
        return spec
    if spec is None:
        spec = next(iter(presets))
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, Mapping):
        raise InputError("rules must be a preset name or an object with a 'preset' key")
    preset_name = spec.get("preset", next(iter(presets)))
    if preset_name not in presets:
        raise InputError(
            f"unknown rules preset {preset_name!r}: choose one of {', '.join(presets)}"
        )
    base = presets[preset_name]
    hints = _field_hints(cls)
    fields = {f.name for f in dataclasses.fields(cls)}
    changes: dict[str, object] = {}
    for key, value in spec.items():
        if key == "preset":
            continue
        if key not in fields or key == "preset_name":
            raise InputError(f"unknown rule option '{key}'")
        changes[key] = _check_value(key, value, hints[key], choices)
    rules = dataclasses.replace(base, **changes)
    validate = getattr(rules, "validate", None)
    if validate is not None:
        validate()
    return rules


def rules_to_json(rules: DataclassInstance) -> RulesJson:
    """The options as a JSON object that ``build_rules`` reads back."""
    data: RulesJson = dataclasses.asdict(rules)
    data["preset"] = data.pop("preset_name")
    return data
