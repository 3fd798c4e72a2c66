"""Train a masked policy on one CPU: sb3-contrib's ``MaskablePPO`` on the Gymnasium
wrapper (``rami.rl.gym_env``), one learning seat against rami bots.

``python -m rami.rl.train`` or ``rami train``; the result is a policy file (numpy
arrays, ``rami.rl.policy``) that ``make_bot(game, "learned:PATH")`` plays, plus the
sb3 model next to it (``PATH.sb3.zip``) to resume training with ``--resume``.

``--imitate TEACHER`` trains the same network by behaviour cloning instead of PPO
(``rami.rl.imitate``): a warm start that ``--resume`` then continues with PPO.
``--policy rank --imitate TEACHER`` clones into a policy that ranks the legal actions
by what they lead to (``rami.rl.afterstate``, ``rami.rl.policy.RankPolicy``): the
numpy file only, no sb3 model; ``--resume`` goes on with DAgger rounds from it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from rami.errors import InputError
from rami.games import rl_default_game
from rami.wording import count

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
    imitate: str | None = None  # behaviour cloning from this teacher instead of PPO
    samples: int = 20_000  # decisions recorded for cloning (first pass)
    epochs: float = 4.0  # passes over the recorded decisions per fit
    dagger: int = 0  # DAgger rounds: the policy plays, the teacher labels, fit again
    dagger_samples: int | None = None  # decisions per DAgger round (default samples / 2)
    imitate_lr: float = 1e-3
    half: bool = False  # store the policy file's arrays as float16 (half the size)
    policy: str = "flat"  # flat (a logit per action id) or rank (a score per legal action)
    # or value (a position value for the search bots' depth cut, rami.rl.value_train)
    progress_every: float = 10.0  # seconds between progress lines (0: after every rollout)
    notes: dict[str, object] = field(default_factory=dict)


def check_config(config: TrainConfig) -> None:
    """Every argument error, before torch is imported (it takes seconds to load): a bad
    option fails at once (issue 23), and so does ``--resume`` with nothing to resume."""
    if config.policy not in ("flat", "rank", "value"):
        raise InputError(f"unknown --policy {config.policy!r}: choose flat, rank or value")
    if config.policy == "value":
        if config.minutes <= 0 or config.samples < 1 or config.epochs <= 0:
            raise InputError("--policy value needs a positive --minutes, --samples and --epochs")
        if config.backend != "local" or config.resume or config.imitate is not None:
            raise InputError(
                "--policy value records self-play here: no --backend ray, --resume or --imitate"
            )
        return
    if config.backend not in ("local", "ray"):
        raise InputError(f"unknown backend {config.backend!r}: choose local or ray")
    if config.envs < 1:
        raise InputError("--envs must be at least 1")
    if config.imitate is None:
        if config.policy == "rank":
            raise InputError("--policy rank is trained by cloning: give --imitate TEACHER")
        if config.minutes <= 0 and not config.steps:
            raise InputError("give a positive --minutes or --steps")
        if config.steps is not None and config.steps < 0:
            raise InputError("--steps must not be negative")
    else:
        from rami.rl.imitate import make_teacher

        make_teacher(config.game, config.imitate)  # InputError if unknown
        if config.samples < 1 or config.epochs <= 0 or config.dagger < 0:
            raise InputError("--samples and --epochs must be positive, --dagger at least 0")
    if config.policy == "rank" and config.backend != "local":
        raise InputError("--policy rank records in this process: use --backend local")
    if config.resume:
        out = Path(config.out)
        wanted = out if config.policy == "rank" else out.with_suffix(".sb3.zip")
        if not wanted.is_file():
            raise InputError(
                f"nothing to resume: {wanted} does not exist (leave out --resume to start "
                "a new policy, or give --out the policy to continue)"
            )


def rounded_steps(steps: int, rollout: int) -> int:
    """The steps PPO really trains for ``--steps``: it learns in whole rollouts
    (``n_steps`` × environments), so ``--steps 256`` with rollouts of 1,024 trains 1,024."""
    return -(-steps // rollout) * rollout


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
    check_config(config)
    if config.policy == "rank":
        return _train_ranked(config, log)
    if config.policy == "value":
        from rami.rl.value_train import train_value

        return train_value(config, log)
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.callbacks import BaseCallback
        from stable_baselines3.common.logger import Logger
        from stable_baselines3.common.vec_env import DummyVecEnv
    except ImportError:
        raise InputError("training needs the rl extra: pip install 'rami[rl]'") from None
    from rami.rl.policy import export_sb3

    torch.set_num_threads(1)
    opponents = list(config.opponents) or ["random"]
    makers = [_make_env(config, opponents[i % len(opponents)], i) for i in range(config.envs)]
    if config.backend == "ray":
        from rami.rl.ray_vec_env import RayVecEnv

        env: Any = RayVecEnv(makers)
    else:
        env = DummyVecEnv(makers)
    env.seed(config.seed)
    out = Path(config.out)
    model_path = out.with_suffix(".sb3.zip")
    if config.resume:  # check_config made sure that the model is there
        rate = config.learning_rate  # this run's rate and entropy bonus, not the saved ones
        model = MaskablePPO.load(
            model_path,
            env=env,
            device="cpu",
            custom_objects={
                "learning_rate": rate,
                "lr_schedule": lambda _progress: rate,
                "ent_coef": config.ent_coef,
            },
        )
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
    # sb3 would make an empty $TMPDIR/SB3-<date> folder for each run's logs: no files
    model.set_logger(Logger(folder=None, output_formats=[]))
    deadline = time.monotonic() + config.minutes * 60 if config.minutes > 0 else None
    started = time.monotonic()
    episodes: list[float] = []
    total = 10**9
    rollout = int(model.n_steps) * config.envs
    if config.imitate is None and config.steps:
        total = rounded_steps(config.steps, rollout)
    budget = _budget_text(config, total)
    log(
        f"training {config.game} {config.preset} against {', '.join(config.opponents)}"
        f"{f': up to {budget}' if budget else ''}"
    )
    if total != config.steps and config.imitate is None and config.steps:
        log(
            f"--steps {config.steps} is rounded up to {total}: PPO learns in whole "
            f"rollouts of {rollout} steps ({model.n_steps} × {count(config.envs, 'environment')})"
        )

    class Stop(BaseCallback):
        last = time.monotonic()

        def _on_step(self) -> bool:
            for done, reward in zip(
                self.locals.get("dones", ()), self.locals.get("rewards", ()), strict=False
            ):
                if done:
                    episodes.append(float(reward))
            return deadline is None or time.monotonic() < deadline

        def _on_rollout_end(self) -> None:
            """A progress line every ``progress_every`` seconds (a rollout at most)."""
            now = time.monotonic()
            if now - self.last < config.progress_every:
                return
            self.last = now
            recent = episodes[-200:]
            mean = f", mean final reward {sum(recent) / len(recent):.3f}" if recent else ""
            log(
                f"{_clock(now - started)}{f' of {budget}' if budget else ''}: "
                f"{self.num_timesteps} steps, "
                f"{count(len(episodes), 'deal')}{mean}"
            )

    cloned: dict[str, object] = {}
    if config.imitate is not None:
        cloned = _imitate(model, config, makers, deadline, log)
    else:
        model.learn(total_timesteps=total, callback=Stop(), reset_num_timesteps=not config.resume)
    elapsed = time.monotonic() - started
    env.close()
    probe: Any = makers[0]()
    history = list(_previous_meta(out).get("imitation", [])) if config.resume else []
    if cloned:
        history.append(cloned)
    if history:  # the cloning passes this network went through, oldest first
        config.notes = {**config.notes, "imitation": history}
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
        "trained_steps": int(model.num_timesteps),  # PPO steps
        "trained_seconds": round(elapsed, 1),
        "config": {k: v for k, v in asdict(config).items() if k != "notes"},
        **config.notes,
    }
    policy = export_sb3(model, meta)
    out.parent.mkdir(parents=True, exist_ok=True)
    policy.save(out, half=config.half)
    model.save(model_path)
    summary = {
        "policy": str(out),
        "model": str(model_path),
        "steps": int(model.num_timesteps),
        "seconds": round(elapsed, 1),
        "deals": len(episodes) if not cloned else cloned["deals"],
        **({"imitation": cloned} if cloned else {}),
        "mean_final_reward_last_200": (
            sum(episodes[-200:]) / len(episodes[-200:]) if episodes else None
        ),
    }
    if cloned:
        log(
            f"cloned {config.imitate} from {cloned['samples']} decisions ({cloned['deals']} "
            f"deals) in {elapsed:.0f}s, held-out agreement {cloned['agreement']}; "
            f"policy {out}, model {model_path}"
        )
        return summary
    log(
        f"trained {summary['steps']} steps ({count(len(episodes), 'deal')}) "
        f"in {elapsed:.0f}s; "
        f"policy {out}, model {model_path}"
    )
    return summary


def _clock(seconds: float) -> str:
    """Elapsed time as m:ss."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _budget_text(config: TrainConfig, steps: int) -> str:
    """ "5:00", "1024 steps" or both: what a progress line's figures run up to."""
    parts = []
    if config.minutes > 0:
        parts.append(_clock(config.minutes * 60))
    if config.imitate is None and config.steps:
        parts.append(f"{steps} steps")
    return " or ".join(parts)


def _previous_meta(out: Path) -> dict[str, Any]:
    """The meta of the policy file a resumed run overwrites (its history is kept)."""
    from rami.rl.policy import MlpPolicy

    try:
        return MlpPolicy.load(out).meta
    except InputError:
        return {}


class _Recorded(Protocol):
    """What a DAgger round's recordings are kept in (``imitate.Dataset``, ``RankDataset``)."""

    deals: int
    seconds: float

    def __len__(self) -> int: ...

    def extend(self, other: Any) -> None: ...


_Data = TypeVar("_Data", bound=_Recorded)


def _dagger(
    config: TrainConfig,
    makers: Sequence[Callable[[], Any]],
    record_part: Callable[[Callable[[], Any], int, int, Any], _Data],
    fit_all: Callable[[_Data, int], Mapping[str, object]],
    actor: Callable[[], Any],
    deadline: float | None,
    log: Callable[[str], None],
) -> tuple[dict[str, object], _Data]:
    """Behaviour cloning with DAgger rounds, for either policy kind: the first pass on the
    teacher's own deals (the policy's own when resuming), then ``config.dagger`` rounds on
    the policy's (``actor()``: its chooser now) with the teacher labelling; each fit
    (``fit_all(data, round)``) goes over all the decisions so far; ``deadline`` bounds the
    recording. A summary for the policy's meta, and the decisions."""
    data: _Data | None = None
    rounds: list[dict[str, object]] = []
    for round_ in range(config.dagger + 1):
        want = config.samples if round_ == 0 else config.dagger_samples or config.samples // 2
        # the teacher plays the first pass of a new network; a resumed one (or a later
        # round) plays itself and the teacher labels its positions (DAgger)
        fresh = round_ == 0 and not config.resume
        chooser = None if fresh else actor()
        share = max(1, want // len(makers))
        who = "the teacher's" if fresh else "the policy's"
        log(f"round {round_}: recording {count(share * len(makers), 'decision')} "
            f"of {who} deals")  # fmt: skip
        for i, make in enumerate(makers):
            part = record_part(make, share, config.seed * 7919 + round_ * 101 + i, chooser)
            if data is None:
                data = part
            else:
                data.extend(part)
            if i + 1 < len(makers):  # a progress line between environments
                log(f"round {round_}: environment {i + 1} of {len(makers)} recorded")
        assert data is not None
        log(f"round {round_}: {count(len(data), 'decision')} from {count(data.deals, 'deal')} "
            f"({data.seconds:.0f}s recording)")  # fmt: skip
        rounds.append({"decisions": len(data), **fit_all(data, round_)})
        if deadline is not None and time.monotonic() >= deadline:
            break
    assert data is not None
    summary: dict[str, object] = {
        "teacher": config.imitate,
        "opponents": list(config.opponents),
        "samples": len(data),
        "deals": data.deals,
        "dagger_rounds": len(rounds) - 1,
        "epochs": config.epochs,
        "agreement": rounds[-1]["agreement"],
        "rounds": rounds,
    }
    return summary, data


def _imitate(
    model: Any,
    config: TrainConfig,
    makers: Sequence[Callable[[], Any]],
    deadline: float | None,
    log: Callable[[str], None],
) -> dict[str, object]:
    """Behaviour cloning (``rami.rl.imitate``) of ``model``'s policy from the teacher
    (``_dagger``). A summary for the policy's meta."""
    from rami.rl.imitate import fit, greedy_chooser, make_teacher, record

    assert config.imitate is not None
    teacher = make_teacher(config.game, config.imitate, config.seed)
    policy = model.policy
    summary, _ = _dagger(
        config,
        makers,
        lambda make, n, seed, actor: record(make, teacher, n, seed, actor, deadline),
        lambda data, round_: fit(
            policy,
            data,
            config.epochs,
            config.batch_size,
            config.imitate_lr,
            seed=config.seed + round_,
            log=log,
        ),
        lambda: greedy_chooser(policy),
        deadline,
        log,
    )
    return summary


def _train_ranked(config: TrainConfig, log: Callable[[str], None]) -> dict[str, object]:
    """Behaviour cloning with DAgger into a ``RankPolicy`` (``--policy rank``): the first
    pass on the teacher's own deals (the policy's when resuming), then ``config.dagger``
    rounds on the policy's; each fit goes over all the decisions so far."""
    try:
        import torch
    except ImportError:
        raise InputError("training needs the rl extra: pip install 'rami[rl]'") from None
    from rami.rl.imitate import (
        fit_ranked,
        load_layers,
        make_teacher,
        network_layers,
        rank_network,
        record_ranked,
    )
    from rami.rl.policy import RankPolicy, load_policy

    if config.imitate is None:
        raise InputError("--policy rank is trained by cloning: give --imitate TEACHER")
    teacher = make_teacher(config.game, config.imitate, config.seed)
    if config.samples < 1 or config.epochs <= 0 or config.dagger < 0:
        raise InputError("--samples and --epochs must be positive, --dagger at least 0")
    if config.envs < 1:
        raise InputError("--envs must be at least 1")
    if config.backend != "local":
        raise InputError("--policy rank records in this process: use --backend local")
    torch.set_num_threads(1)
    opponents = list(config.opponents) or ["random"]
    makers = [_make_env(config, opponents[i % len(opponents)], i) for i in range(config.envs)]
    probe: Any = makers[0]()
    probe.reset(seed=config.seed)
    from rami.rl.afterstate import AfterstateFeatures

    features = AfterstateFeatures(probe.state.view(probe.seat))
    out = Path(config.out)
    meta: dict[str, Any] = {
        "policy": "rank",
        "game": probe.spec_.name,
        "preset": config.preset,
        "players": probe.num_players,
        "rules": str(config.preset),
        "observation_size": features.size,
        "extras": list(features.extras),
        "action_space": probe.space.name,
        "action_space_size": probe.space.size,
        "action_space_digest": probe.space.digest(),
        "activation": "tanh",
    }
    probe.close()
    model = rank_network(features.size + len(features.extras), config.net, config.seed)
    history: list[object] = []
    if config.resume:
        previous = load_policy(out)
        if not isinstance(previous, RankPolicy):
            raise InputError(f"{out} is not a ranking policy: --resume needs one")
        try:
            load_layers(model, previous.layers)
        except ValueError:
            raise InputError(f"{out}'s layers do not match --net {config.net}") from None
        history = list(previous.meta.get("imitation", []))
    deadline = time.monotonic() + config.minutes * 60 if config.minutes > 0 else None
    started = time.monotonic()

    def current() -> RankPolicy:
        return RankPolicy(meta, network_layers(model))

    cloned, data = _dagger(
        config,
        makers,
        lambda make, n, seed, actor: record_ranked(make, teacher, n, seed, actor, deadline),
        lambda data, round_: fit_ranked(
            model,
            data,
            config.epochs,
            config.batch_size,
            config.imitate_lr,
            seed=config.seed + round_,
            log=log,
        ),
        lambda: current().best,
        deadline,
        log,
    )
    elapsed = time.monotonic() - started
    meta["imitation"] = [*history, cloned]
    meta["trained_seconds"] = round(elapsed, 1)
    meta["config"] = {k: v for k, v in asdict(config).items() if k != "notes"}
    meta.update(config.notes)
    out.parent.mkdir(parents=True, exist_ok=True)
    current().save(out, half=config.half)
    log(
        f"cloned {config.imitate} into a ranking policy from {len(data)} decisions "
        f"({count(data.deals, 'deal')}) in {elapsed:.0f}s, "
        f"held-out agreement {cloned['agreement']}; "
        f"policy {out}"
    )
    return {
        "policy": str(out),
        "steps": 0,
        "seconds": round(elapsed, 1),
        "deals": data.deals,
        "imitation": cloned,
    }


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - thin CLI
    from rami.cli import main as cli_main

    cli_main(["train", *(argv or [])])


if __name__ == "__main__":  # pragma: no cover
    import sys

    main(sys.argv[1:])
