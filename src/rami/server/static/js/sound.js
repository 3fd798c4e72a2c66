// Card sounds synthesised with Web Audio (issue 21): no audio files. One switch mutes
// them all and is remembered (localStorage "rami.sound"). Browsers start audio only
// after a gesture: until then every sound is silently skipped.

const KEY = "rami.sound";
let context = null;
let on = localStorage.getItem(KEY) !== "off";

export function soundOn() {
  return on;
}

export function setSoundOn(value) {
  on = !!value;
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) unlock();
}

// Called from a user gesture: creates or resumes the context.
export function unlock() {
  try {
    context = context || new (window.AudioContext || window.webkitAudioContext)();
    if (context.state === "suspended") context.resume();
  } catch {
    context = null;
  }
}

function ready() {
  return on && context && context.state === "running";
}

// A short band of noise: a card sliding (draw, take) or snapping down (discard, meld).
function noise(duration, frequency, gain) {
  const rate = context.sampleRate;
  const buffer = context.createBuffer(1, Math.ceil(rate * duration), rate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 2;
  const source = context.createBufferSource();
  source.buffer = buffer;
  const filter = context.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = frequency;
  filter.Q.value = 0.9;
  const level = context.createGain();
  level.gain.value = gain;
  source.connect(filter).connect(level).connect(context.destination);
  source.start();
}

function tone(frequency, duration, gain = 0.12) {
  const osc = context.createOscillator();
  const level = context.createGain();
  osc.frequency.value = frequency;
  level.gain.setValueAtTime(0.0001, context.currentTime);
  level.gain.exponentialRampToValueAtTime(gain, context.currentTime + 0.02);
  level.gain.exponentialRampToValueAtTime(0.0001, context.currentTime + duration);
  osc.connect(level).connect(context.destination);
  osc.start();
  osc.stop(context.currentTime + duration + 0.05);
}

const SOUNDS = {
  draw: () => noise(0.12, 2400, 0.5),
  take: () => noise(0.12, 1800, 0.5),
  discard: () => noise(0.08, 900, 0.8),
  meld: () => {
    noise(0.08, 900, 0.6);
    setTimeout(() => ready() && noise(0.08, 1100, 0.6), 70);
  },
  deal: () => noise(0.3, 2600, 0.4),
  turn: () => tone(660, 0.25),
};

export function playSound(kind) {
  if (!ready() || !SOUNDS[kind]) return;
  try {
    SOUNDS[kind]();
  } catch {
    /* no audio here */
  }
}
