"""Behaviour cloning: a warm start for the masked policy (``rami train --imitate TEACHER``).

A flat policy over thousands of ids rarely finds the Tunisian opening (71 points laid in
one turn, T-6) by exploration; a teacher shows it. ``record`` plays deals in the
Gymnasium wrapper (``rami.rl.gym_env``, the encoder and masks PPO sees) and keeps, at
each decision of the learning seat, ``(observation, legal ids, teacher's id)``; the
teacher acts from that seat's view only. ``fit`` trains the actor of a ``MaskablePPO``
``MlpPolicy`` by cross-entropy over the legal ids (and its value head on the deal's
reward), so the result is both a policy file and an sb3 model that ``--resume``
continues with PPO. With DAgger rounds (``dagger``) the policy plays and the teacher
labels the positions the policy reaches, which mends the errors that cloning alone
compounds.

Teachers: any bot level (``greedy``, ``hard``, ``hard:16it`` …) or ``own``: ``hard``'s
own moves without its search (the bot kit's ``own_policy``, greedy where the game has
none), about as fast as greedy and most of ``hard``'s edge in Tunisian rami.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from rami.bots import Bot, check_spec, make_bot
from rami.bots.kit import kit_of
from rami.engine import Action
from rami.views import TypedView

if TYPE_CHECKING:
    from rami.rl.afterstate import Candidates

__all__ = [
    "Dataset",
    "OwnPolicyTeacher",
    "RankDataset",
    "fit_ranked",
    "make_teacher",
    "rank_network",
    "record",
    "record_ranked",
]

TEACHERS_HELP = "a bot level (greedy, hard, hard:16it …) or own (hard's moves without search)"


class OwnPolicyTeacher(Bot):
    """``hard``'s own move without search (the kit's ``own_policy``), from a view.

    ``own_policy`` reads a state, so the state is a determinization of the view
    (``kit.sample``); the policy reads only the seat's own knowledge from it
    (``observe_state``), so the move does not depend on the sampled hidden cards."""

    name = "own"

    def __init__(self, game: str, seed: int = 0) -> None:
        super().__init__(seed)
        self.kit = kit_of(game)

    def choose(self, view: TypedView) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        state = self.kit.sample(view, self.rng(view, "own"), None)
        policy = self.kit.own_policy or self.kit.policy
        return policy(state)


def make_teacher(game: str, spec: str, seed: int = 0) -> Bot:
    """The teacher named ``spec`` (see the module docstring); ``InputError`` if unknown."""
    if spec.strip().lower() == "own":
        return OwnPolicyTeacher(game, seed)
    check_spec(game, spec)
    return make_bot(game, spec, seed)


@dataclass
class Dataset:
    """Recorded decisions: observations (float16: the encoder's values are counts over
    two copies, one-hots and small fractions), legal masks packed to bits, the teacher's
    ids and each decision's deal reward (scaled as the environment pays it)."""

    size: int  # the mask's length (the action space)
    obs: list[npt.NDArray[np.float16]] = field(default_factory=list)
    masks: list[npt.NDArray[np.uint8]] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    deals: int = 0
    seconds: float = 0.0

    def __len__(self) -> int:
        return len(self.actions)

    def extend(self, other: Dataset) -> None:
        self.obs += other.obs
        self.masks += other.masks
        self.actions += other.actions
        self.returns += other.returns
        self.deals += other.deals
        self.seconds += other.seconds

    def arrays(
        self,
    ) -> tuple[
        npt.NDArray[np.float16],
        npt.NDArray[np.uint8],
        npt.NDArray[np.int64],
        npt.NDArray[np.float32],
    ]:
        return (
            np.stack(self.obs),
            np.stack(self.masks),
            np.asarray(self.actions, np.int64),
            np.asarray(self.returns, np.float32),
        )


Chooser = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


def record(
    make_env: Callable[[], Any],
    teacher: Bot,
    samples: int,
    seed: int,
    actor: Chooser | None = None,
    deadline: float | None = None,
) -> Dataset:
    """Play deals in the environment ``make_env`` builds until ``samples`` decisions of
    the learning seat are kept (or ``deadline``, a ``time.monotonic`` value, passes).

    The teacher labels each decision from the learning seat's view; the move played is
    the teacher's, or ``actor``'s (DAgger: the learner's own positions) when given."""
    env = make_env()
    data = Dataset(env.space.size)
    started = time.monotonic()
    rng = random.Random(seed)
    while len(data) < samples and (deadline is None or time.monotonic() < deadline):
        obs, info = env.reset(seed=rng.randrange(2**31))
        first = len(data)
        done = False
        reward = 0.0
        while not done:
            mask = info["action_mask"]
            view = env.spec_.typed_view(env.state, env.seat)
            label = env.space.ids_of([teacher.act(view)])[0]
            data.obs.append(obs.astype(np.float16))
            data.masks.append(np.packbits(mask.astype(np.bool_)))
            data.actions.append(label)
            move = label if actor is None else actor(obs, mask)
            obs, r, term, trunc, info = env.step(move)
            reward += float(r)
            done = bool(term or trunc)
        data.returns += [reward] * (len(data) - first)
        data.deals += 1
    data.seconds = time.monotonic() - started
    env.close()
    return data


def unpack_masks(packed: npt.NDArray[np.uint8], size: int) -> npt.NDArray[np.bool_]:
    return np.unpackbits(packed, axis=1, count=size).astype(np.bool_)


def _fit_loop(
    n: int,
    loss_of: Callable[[npt.NDArray[np.int64]], Any],
    hits_of: Callable[[npt.NDArray[np.int64]], int],
    optim: Any,
    epochs: float,
    batch_size: int,
    seed: int,
    held_out: float,
    log: Callable[[str], None],
) -> dict[str, float]:
    """The cloning fit both policy kinds share: a held-out share of the ``n`` decisions,
    ``epochs`` passes of minibatches (``loss_of(batch)``: the batch's mean loss, a torch
    scalar), each epoch logged with the held-out top-1 agreement (``hits_of(batch)``:
    decisions where the policy's best action is the teacher's).

    Returns the last epoch's loss and the held-out agreement."""
    import torch

    gen = np.random.default_rng(seed)
    order = gen.permutation(n)
    cut = int(n * held_out) if n >= 40 else 0
    test, train_idx = order[:cut], order[cut:]

    def agreement() -> float:
        if not len(test):
            return float("nan")
        with torch.no_grad():
            hits = sum(hits_of(test[i : i + 1024]) for i in range(0, len(test), 1024))
        return hits / len(test)

    total_batches = max(1, round(epochs * len(train_idx) / batch_size))
    done = 0
    last_loss = float("nan")
    epoch = 0
    while done < total_batches:
        perm = gen.permutation(train_idx)
        epoch += 1
        loss_sum, seen = 0.0, 0
        for i in range(0, len(perm), batch_size):
            batch = perm[i : i + batch_size]
            loss = loss_of(batch)
            optim.zero_grad()
            loss.backward()
            optim.step()
            loss_sum += loss.item() * len(batch)
            seen += len(batch)
            done += 1
            if done >= total_batches:
                break
        last_loss = loss_sum / max(seen, 1)
        log(f"epoch {epoch}: loss {last_loss:.4f}, held-out agreement {agreement():.3f}")
    return {"loss": round(last_loss, 4), "agreement": round(agreement(), 4)}


def fit(
    policy: Any,
    data: Dataset,
    epochs: float,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    value_coef: float = 0.5,
    seed: int = 0,
    log: Callable[[str], None] = print,
    held_out: float = 0.05,
) -> dict[str, float]:
    """Train an sb3 ``MaskableActorCriticPolicy``'s actor by cross-entropy over the legal
    ids (the teacher's id is the target) and its value head on the deal's reward.

    Returns the last epoch's training loss and the held-out top-1 agreement (the share
    of held-out decisions where the policy's best legal id is the teacher's)."""
    import torch
    from torch.nn import functional

    obs, masks, actions, returns = data.arrays()
    params = [
        *policy.mlp_extractor.parameters(),
        *policy.action_net.parameters(),
        *policy.value_net.parameters(),
    ]
    optim = torch.optim.Adam(params, lr=learning_rate)

    def forward(idx: npt.NDArray[np.int64]) -> tuple[Any, Any]:
        x = torch.as_tensor(obs[idx].astype(np.float32))
        latent_pi, latent_vf = policy.mlp_extractor(policy.extract_features(x))
        logits = policy.action_net(latent_pi)
        legal = torch.as_tensor(unpack_masks(masks[idx], data.size))
        return logits.masked_fill(~legal, -1e9), policy.value_net(latent_vf).squeeze(-1)

    def loss_of(idx: npt.NDArray[np.int64]) -> Any:
        logits, values = forward(idx)
        loss = functional.cross_entropy(logits, torch.as_tensor(actions[idx]))
        return loss + value_coef * functional.mse_loss(values, torch.as_tensor(returns[idx]))

    def hits_of(idx: npt.NDArray[np.int64]) -> int:
        logits, _v = forward(idx)
        return int((logits.argmax(dim=1).numpy() == actions[idx]).sum())

    policy.set_training_mode(True)
    fitted = _fit_loop(
        len(actions), loss_of, hits_of, optim, epochs, batch_size, seed, held_out, log
    )
    policy.set_training_mode(False)
    return fitted


def greedy_chooser(policy: Any) -> Chooser:
    """The policy's best legal id for an observation and mask (DAgger's actor)."""
    import torch

    def choose(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
        with torch.no_grad():
            x = torch.as_tensor(obs[None, :].astype(np.float32))
            latent_pi, _ = policy.mlp_extractor(policy.extract_features(x))
            logits = policy.action_net(latent_pi)[0].numpy()
        legal = np.flatnonzero(mask)
        return int(legal[int(np.argmax(logits[legal]))])

    return choose


# ------------------------------------------------------------------ ranking policies
# ``rami train --policy rank``: the network scores each legal action from what it leads
# to (``rami.rl.afterstate``) and a softmax over the legal actions only is fitted to the
# teacher's choice. The teacher's move is one of a dozen candidates described by the
# engine, not one of 6,422 ids read from count planes.


@dataclass
class RankDataset:
    """Recorded decisions with more than one legal action: per decision the observation
    (float16), the teacher's index among the legal actions and, per legal action, its
    encoding change (positions, values) and extras (``rami.rl.afterstate``)."""

    before: list[npt.NDArray[np.float16]] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)  # legal actions per decision
    idx: list[npt.NDArray[np.int32]] = field(default_factory=list)  # per action
    val: list[npt.NDArray[np.float16]] = field(default_factory=list)  # per action
    extra: list[npt.NDArray[np.float32]] = field(default_factory=list)  # per decision
    deals: int = 0
    seconds: float = 0.0

    def __len__(self) -> int:
        return len(self.labels)

    def add(self, c: Candidates, label: int) -> None:
        self.before.append(c.before.astype(np.float16))
        self.labels.append(label)
        self.counts.append(len(c.legal))
        self.idx += c.idx
        self.val += [v.astype(np.float16) for v in c.val]
        self.extra.append(c.extra)

    def extend(self, other: RankDataset) -> None:
        self.before += other.before
        self.labels += other.labels
        self.counts += other.counts
        self.idx += other.idx
        self.val += other.val
        self.extra += other.extra
        self.deals += other.deals
        self.seconds += other.seconds


RankChooser = Callable[["Candidates"], int]


def record_ranked(
    make_env: Callable[[], Any],
    teacher: Bot,
    samples: int,
    seed: int,
    actor: RankChooser | None = None,
    deadline: float | None = None,
) -> RankDataset:
    """``record`` for a ranking policy: play deals in the environment until ``samples``
    decisions with a choice are kept (or ``deadline`` passes). The inputs are built
    from the learning seat's view as the bot builds them (``LearnedBot``); the move
    played is the teacher's, or ``actor``'s (DAgger)."""
    from rami.rl.afterstate import AfterstateFeatures

    env = make_env()
    data = RankDataset()
    started = time.monotonic()
    rng = random.Random(seed)
    features: AfterstateFeatures | None = None
    while len(data) < samples and (deadline is None or time.monotonic() < deadline):
        env.reset(seed=rng.randrange(2**31))
        done = False
        while not done:
            view = env.spec_.typed_view(env.state, env.seat)
            legal = list(view.legal)
            move = legal[0]
            if len(legal) > 1:
                if features is None:
                    features = AfterstateFeatures(view)
                c = features.build(view, random.Random(rng.randrange(2**63)))
                label = c.legal.index(teacher.act(view))
                data.add(c, label)
                move = c.legal[label if actor is None else actor(c)]
            _obs, _r, term, trunc, _info = env.step(env.space.ids_of([move])[0])
            done = bool(term or trunc)
        data.deals += 1
    data.seconds = time.monotonic() - started
    env.close()
    return data


def rank_network(inputs: int, net: Sequence[int], seed: int) -> Any:
    """A torch MLP (tanh) from the inputs of one action to its score."""
    import torch

    torch.manual_seed(seed)
    layers: list[Any] = []
    width = inputs
    for h in net:
        layers += [torch.nn.Linear(width, h), torch.nn.Tanh()]
        width = h
    layers.append(torch.nn.Linear(width, 1))
    return torch.nn.Sequential(*layers)


def network_layers(model: Any) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
    """The ``(weight, bias)`` arrays of a ``rank_network``, for ``RankPolicy``."""
    import torch

    return [
        (m.weight.detach().cpu().numpy().copy(), m.bias.detach().cpu().numpy().copy())
        for m in model
        if isinstance(m, torch.nn.Linear)
    ]


def load_layers(model: Any, layers: Sequence[tuple[npt.NDArray[Any], npt.NDArray[Any]]]) -> None:
    """Set a ``rank_network``'s weights from a policy file's layers (``--resume``)."""
    import torch

    linear = [m for m in model if isinstance(m, torch.nn.Linear)]
    if [tuple(m.weight.shape) for m in linear] != [tuple(w.shape) for w, _b in layers]:
        raise ValueError("the policy file's layers do not match the network")
    with torch.no_grad():
        for m, (w, b) in zip(linear, layers, strict=True):
            m.weight.copy_(torch.as_tensor(np.asarray(w, np.float32)))
            m.bias.copy_(torch.as_tensor(np.asarray(b, np.float32)))


def fit_ranked(
    model: Any,
    data: RankDataset,
    epochs: float,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    seed: int = 0,
    log: Callable[[str], None] = print,
    held_out: float = 0.05,
) -> dict[str, float]:
    """Fit a ``rank_network`` by cross-entropy of a softmax over each decision's legal
    actions (the teacher's action is the target). The first layer is applied as
    ``W_obs @ before`` per decision plus, per action, the rows of its changed entries
    (``embedding_bag``) and ``W_extra @ extras``: the after-positions are never built.

    Returns the last epoch's loss and the held-out top-1 agreement with the teacher."""
    import torch
    from torch.nn import functional

    n = len(data)
    before = np.stack(data.before)
    labels = np.asarray(data.labels, np.int64)
    counts = np.asarray(data.counts, np.int64)
    first = np.concatenate([[0], np.cumsum(counts)])  # per decision, its first action
    sizes = np.asarray([len(i) for i in data.idx], np.int64)
    start = np.concatenate([[0], np.cumsum(sizes)])  # per action, its first change
    idx_all = np.concatenate(data.idx).astype(np.int64) if len(sizes) else np.zeros(0, np.int64)
    val_all = np.concatenate(data.val).astype(np.float32)
    extra_all = np.concatenate(data.extra).astype(np.float32)
    obs_size = before.shape[1]
    linear0 = model[0]
    optim = torch.optim.Adam(model.parameters(), lr=learning_rate)

    def forward(dec: npt.NDArray[np.int64]) -> tuple[Any, Any]:
        """Scores padded to (decisions, most actions), -inf past each decision's own."""
        c = counts[dec]
        acts = np.concatenate([np.arange(first[d], first[d + 1]) for d in dec])
        owner = np.repeat(np.arange(len(dec)), c)
        slot = acts - np.repeat(first[dec], c)
        w_obs = linear0.weight[:, :obs_size]
        w_extra = linear0.weight[:, obs_size:]
        base = torch.as_tensor(before[dec].astype(np.float32)) @ w_obs.T
        pieces = [np.arange(start[a], start[a + 1]) for a in acts]
        flat = np.concatenate(pieces) if pieces else np.zeros(0, np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes[acts])[:-1]])
        change = functional.embedding_bag(
            torch.as_tensor(idx_all[flat]),
            w_obs.T,
            torch.as_tensor(offsets),
            mode="sum",
            per_sample_weights=torch.as_tensor(val_all[flat]),
        )
        pre = base[torch.as_tensor(owner)] + change + torch.as_tensor(extra_all[acts]) @ w_extra.T
        h = torch.tanh(pre + linear0.bias)
        scores = model[2:](h).squeeze(-1) if len(model) > 2 else h.squeeze(-1)
        padded = torch.full((len(dec), int(c.max())), float("-inf"))
        padded[torch.as_tensor(owner), torch.as_tensor(slot)] = scores
        return padded, torch.as_tensor(labels[dec])

    def loss_of(dec: npt.NDArray[np.int64]) -> Any:
        return functional.cross_entropy(*forward(dec))

    def hits_of(dec: npt.NDArray[np.int64]) -> int:
        padded, target = forward(dec)
        return int((padded.argmax(dim=1) == target).sum())

    model.train()
    fitted = _fit_loop(n, loss_of, hits_of, optim, epochs, batch_size, seed, held_out, log)
    model.eval()
    return fitted
