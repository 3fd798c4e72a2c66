"""Train a masked policy on one CPU: sb3-contrib's ``MaskablePPO`` on the Gymnasium
wrapper (``rami.rl.gym_env``), one learning seat against rami bots.

``python -m rami.rl.train`` or ``rami train``; the result is a policy file (numpy
arrays, ``rami.rl.policy``) that ``make_bot(game, "learned:PATH")`` plays, plus the
sb3 model next to it (``PATH.sb3.zip``) to resume training with ``--resume``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rami.errors import InputError
from rami.games import rl_default_game

__all__ = ["TrainConfig", "train"]


@dataclass
class TrainConfig:
    game: str = field(default_factory=lambda: rl_default_game().name)
    preset: str = field(default_factory=lambda: rl_default_game().presets[0])
    players: int | None = None
    opponents: Sequence[str] = ("random", "greedy")  # one per env, cycled
    minutes: float = 3.0
    steps: int | None = None  # stop after this many learner steps (whichever first)
    seed: int = 0
    out: str = "policy.npz"
    envs: int = 2
    max_turns: int = 200
    reward_scale: float = 0.01
    net: Sequence[int] = (128, 128)
    learning_rate: float = 3e-4
    n_steps: int = 512
    batch_size: int = 256
    ent_coef: float = 0.01
    resume: bool = False
    backend: str = "local"  # local (in this process) or ray (environments in Ray actors)
    notes: dict[str, object] = field(default_factory=dict)


def _make_env(config: TrainConfig, opponent: str, index: int) -> Callable[[], Any]:
    def make() -> Any:
        from rami.rl.gym_env import RamiGymEnv

        return RamiGymEnv(
            config.game,
            config.preset,
            config.players,
            opponents=opponent,
            max_turns=config.max_turns,
            reward_scale=config.reward_scale,
            bot_seed=config.seed * 1000 + index,
        )

    return make


def train(config: TrainConfig, log: Callable[[str], None] = print) -> dict[str, object]:
    """Train, save the policy file and the sb3 model; return a summary."""
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import BaseCallback
        from stable_baselines3.common.vec_env import DummyVecEnv
    except ImportError:
        raise InputError("training needs the rl extra: pip install 'rami[rl]'") from None
    from rami.rl.policy import export_sb3

    if config.minutes <= 0 and not config.steps:
        raise InputError("give a positive --minutes or --steps")
    if config.envs < 1:
        raise InputError("--envs must be at least 1")
    torch.set_num_threads(1)
    opponents = list(config.opponents) or ["random"]
    makers = [_make_env(config, opponents[i % len(opponents)], i) for i in range(config.envs)]
    if config.backend == "ray":
        from rami.rl.ray_vec_env import RayVecEnv

        env: Any = RayVecEnv(makers)
    elif config.backend == "local":
        env = DummyVecEnv(makers)
    else:
        raise InputError(f"unknown backend {config.backend!r}: choose local or ray")
    env.seed(config.seed)
    out = Path(config.out)
    model_path = out.with_suffix(".sb3.zip")
    if config.resume and model_path.exists():
        model = MaskablePPO.load(model_path, env=env, device="cpu")
    else:
        model = MaskablePPO(
            "MlpPolicy",
            env,
            learning_rate=config.learning_rate,
            n_steps=config.n_steps,
            batch_size=config.batch_size,
            ent_coef=config.ent_coef,
            seed=config.seed,
            device="cpu",
            verbose=0,
            policy_kwargs={
                "net_arch": {"pi": list(config.net), "vf": list(config.net)},
                "activation_fn": torch.nn.Tanh,
            },
        )
    deadline = time.monotonic() + config.minutes * 60 if config.minutes > 0 else None
    started = time.monotonic()
    episodes: list[float] = []

    class Stop(BaseCallback):
        logged = 0

        def _on_step(self) -> bool:
            for done, reward in zip(
                self.locals.get("dones", ()), self.locals.get("rewards", ()), strict=False
            ):
                if done:
                    episodes.append(float(reward))
            if len(episodes) >= self.logged + 200:
                self.logged = len(episodes)
                recent = episodes[-200:]
                log(
                    f"{self.num_timesteps} steps, {len(episodes)} deals, "
                    f"mean final reward of the last 200: {sum(recent) / len(recent):.3f}"
                )
            return deadline is None or time.monotonic() < deadline

    total = config.steps or 10**9
    model.learn(total_timesteps=total, callback=Stop(), reset_num_timesteps=not config.resume)
    elapsed = time.monotonic() - started
    env.close()
    probe: Any = makers[0]()
    meta = {
        "game": probe.spec_.name,
        "preset": config.preset,
        "players": probe.num_players,
        "rules": str(config.preset),
        "observation_size": probe.encoder.size,
        "action_space": probe.space.name,
        "action_space_size": probe.space.size,
        "action_space_digest": probe.space.digest(),
        "activation": "tanh",
        "trained_steps": int(model.num_timesteps),
        "trained_seconds": round(elapsed, 1),
        "config": {k: v for k, v in asdict(config).items() if k != "notes"},
        **config.notes,
    }
    policy = export_sb3(model, meta)
    out.parent.mkdir(parents=True, exist_ok=True)
    policy.save(out)
    model.save(model_path)
    summary = {
        "policy": str(out),
        "model": str(model_path),
        "steps": int(model.num_timesteps),
        "seconds": round(elapsed, 1),
        "deals": len(episodes),
        "mean_final_reward_last_200": (
            sum(episodes[-200:]) / len(episodes[-200:]) if episodes else None
        ),
    }
    log(
        f"trained {summary['steps']} steps ({summary['deals']} deals) in {elapsed:.0f}s; "
        f"policy {out}, model {model_path}"
    )
    return summary


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - thin CLI
    from rami.cli import main as cli_main

    cli_main(["train", *(argv or [])])


if __name__ == "__main__":  # pragma: no cover
    import sys

    main(sys.argv[1:])
