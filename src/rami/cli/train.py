"""``rami train``: train a masked policy (MaskablePPO, or behaviour cloning of a bot with
``--imitate``) against rami bots on this CPU.

Example: ``rami train GAME --mode 1v1 --minutes 3 --out policy.npz``, then
``rami simulate GAME --bots learned:policy.npz,greedy``. Needs the rl extra.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rami.cli.simulate import check_preset, preset_help
from rami.errors import InputError
from rami.games import game_names, rl_default_game


def train(
    game: Annotated[str, typer.Argument(help=" or ".join(game_names()))] = rl_default_game().name,
    rules: Annotated[str | None, typer.Option(help=preset_help("rules"))] = None,
    mode: Annotated[str | None, typer.Option(help=preset_help("mode"))] = None,
    players: Annotated[
        int | None, typer.Option(help="Players (games with a choice of table size).")
    ] = None,
    opponents: Annotated[
        str,
        typer.Option(help="Bot levels the learner plays against, one per environment, cycled."),
    ] = "random,greedy",
    minutes: Annotated[float, typer.Option(help="Wall-clock training budget.")] = 3.0,
    steps: Annotated[
        int,
        typer.Option(
            help="Stop after this many steps (0: no limit), rounded up to whole PPO rollouts "
            "(512 × --envs steps)."
        ),
    ] = 0,
    envs: Annotated[int, typer.Option(help="Environments stepped together.")] = 2,
    max_turns: Annotated[int, typer.Option(help="Cap on a deal's turns.")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the network.")] = 0,
    out: Annotated[Path, typer.Option(help="Policy file to write (.npz).")] = Path("policy.npz"),
    resume: Annotated[
        bool,
        typer.Option(
            help="Continue from OUT's .sb3.zip model (OUT itself for --policy rank); an error "
            "if there is none."
        ),
    ] = False,
    backend: Annotated[
        str, typer.Option(help="local, or ray: the environments step in Ray actors.")
    ] = "local",
    imitate: Annotated[
        str | None,
        typer.Option(
            help="Behaviour cloning instead of PPO, from this teacher: a bot level "
            "(greedy, hard, hard:16it …) or own (hard's moves without search); "
            "--minutes bounds the recording. --resume then continues with PPO."
        ),
    ] = None,
    samples: Annotated[
        int, typer.Option(help="Decisions recorded for --imitate (first pass).")
    ] = 20_000,
    epochs: Annotated[float, typer.Option(help="Passes over the decisions per fit.")] = 4.0,
    dagger: Annotated[
        int,
        typer.Option(help="DAgger rounds after cloning: the policy plays, the teacher labels."),
    ] = 0,
    dagger_samples: Annotated[
        int, typer.Option(help="Decisions per DAgger round (0: half of --samples).")
    ] = 0,
    net: Annotated[
        str, typer.Option(help="Hidden layer sizes of a new network, e.g. 128,128.")
    ] = "128,128",
    learning_rate: Annotated[
        float, typer.Option(help="PPO's learning rate (a clone's fine-tuning: lower).")
    ] = 3e-4,
    ent_coef: Annotated[float, typer.Option(help="PPO's entropy bonus.")] = 0.01,
    half: Annotated[
        bool, typer.Option(help="Store the policy file in float16 (half the size).")
    ] = False,
    imitate_lr: Annotated[
        float, typer.Option(help="Cloning's learning rate (Adam; lower to fine-tune a resume).")
    ] = 1e-3,
    policy: Annotated[
        str,
        typer.Option(
            help="flat (a logit per action id) or rank (a score per legal action from "
            "what it leads to; trained with --imitate, numpy file only), or value (a "
            "position value for hard/expert's depth cut, fitted on greedy self-play: "
            "--samples positions within --minutes, one hidden layer of --net's first size)."
        ),
    ] = "flat",
) -> None:
    """Train a policy for one seat against bots and save it for learned:PATH."""
    from rami.bots import check_spec
    from rami.games import get_game
    from rami.rl.train import TrainConfig, check_config
    from rami.rl.train import train as run

    spec = get_game(game)
    preset = rules if spec.preset_label == "rules" else mode
    if (rules if spec.preset_label != "rules" else mode) is not None:
        raise InputError(
            f"{spec.title} takes --{'rules' if spec.preset_label == 'rules' else 'mode'}"
        )
    if preset is not None:
        check_preset(spec.name, preset)
    levels = [o.strip() for o in opponents.split(",") if o.strip()]
    try:
        sizes = tuple(int(n) for n in net.split(",") if n.strip())
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1:
        raise InputError(f"bad --net {net!r}: write layer sizes such as 128,128")
    if learning_rate <= 0 or ent_coef < 0 or imitate_lr <= 0:
        raise InputError(
            "--learning-rate and --imitate-lr must be positive and --ent-coef at least 0"
        )
    for level in levels:
        check_spec(spec.name, level)
    config = TrainConfig(
        game=spec.name,
        preset=preset or spec.presets[0],
        players=players,
        opponents=levels,
        minutes=minutes,
        steps=steps or None,
        seed=seed,
        out=str(out),
        envs=envs,
        max_turns=max_turns,
        resume=resume,
        backend=backend,
        imitate=imitate,
        samples=samples,
        epochs=epochs,
        dagger=dagger,
        dagger_samples=dagger_samples or None,
        net=sizes,
        half=half,
        policy=policy,
        imitate_lr=imitate_lr,
        learning_rate=learning_rate,
        ent_coef=ent_coef,
    )
    check_config(config)  # before torch loads (train() imports it): errors come at once
    run(config, log=lambda line: typer.echo(line, err=True))
