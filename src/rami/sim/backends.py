"""Where the games of a tournament run: this process, local worker processes, or Ray.

Each backend plays the same ``Job`` list with ``play_job`` and hands every result to
``on_result`` as it arrives (for the progress bar); ``run_jobs`` returns the results in
schedule order, so the summary never depends on which worker finished first. Ray is
imported only when asked for (the ``rami[ray]`` extra).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import ModuleType
from typing import TypeVar

from rami.errors import InputError
from rami.sim.tournament import GameResult, Job, TableConfig, play_job

__all__ = ["BACKENDS", "run_jobs", "run_tasks"]

BACKENDS = ("local", "ray")
OnResult = Callable[[GameResult], None]


def _run_inline(config: TableConfig, jobs: Sequence[Job], on_result: OnResult) -> list[GameResult]:
    out = []
    for job in jobs:
        res = play_job(config, job)
        on_result(res)
        out.append(res)
    return out


def _run_pool(
    config: TableConfig, jobs: Sequence[Job], workers: int, on_result: OnResult
) -> list[GameResult]:
    results: dict[int, GameResult] = {}
    # "fork" where there is one: workers start at once and scripts need no main guard
    # (the workers only play games: they never touch the parent's locks or terminal).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: dict[Future[GameResult], int] = {}
        queue = list(reversed(range(len(jobs))))
        window = workers * 4  # a few jobs ahead per worker keeps them busy, memory small
        while queue or pending:
            while queue and len(pending) < window:
                i = queue.pop()
                pending[pool.submit(play_job, config, jobs[i])] = i
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                i = pending.pop(fut)
                res = fut.result()
                results[i] = res
                on_result(res)
    return [results[i] for i in range(len(jobs))]


def _start_ray(workers: int) -> tuple[ModuleType, bool]:
    """Ray, and whether this call started it (then the caller shuts it down): the
    cluster named by ``RAY_ADDRESS``, else a local one of ``workers`` CPUs."""
    try:
        import ray
    except ImportError:
        raise InputError(
            "the ray backend needs Ray: pip install 'rami[ray]' (or use --backend local)"
        ) from None
    if ray.is_initialized():
        return ray, False
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    address = os.environ.get("RAY_ADDRESS")
    if address:
        ray.init(address=address, log_to_driver=False)
    else:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    return ray, True


def _run_ray(
    config: TableConfig, jobs: Sequence[Job], workers: int, on_result: OnResult
) -> list[GameResult]:
    ray, started = _start_ray(workers)
    try:
        remote = ray.remote(num_cpus=1)(play_job)
        config_ref = ray.put(config)
        results: dict[int, GameResult] = {}
        index: dict[object, int] = {}  # Ray's object refs
        queue = list(reversed(range(len(jobs))))
        window = max(workers, 1) * 4
        while queue or index:
            while queue and len(index) < window:
                i = queue.pop()
                index[remote.remote(config_ref, jobs[i])] = i
            done, _ = ray.wait(list(index), num_returns=1)
            for ref in done:
                i = index.pop(ref)
                res = ray.get(ref)
                results[i] = res
                on_result(res)
        return [results[i] for i in range(len(jobs))]
    finally:
        if started:
            ray.shutdown()


def run_jobs(
    config: TableConfig,
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    backend: str = "local",
    on_result: OnResult | None = None,
) -> list[GameResult]:
    """Play ``jobs`` and return their results in schedule order."""
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}: choose local or ray")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError("--workers must be at least 1")
    callback: OnResult = on_result or (lambda _res: None)
    if backend == "ray":
        return _run_ray(config, jobs, workers, callback)
    if workers == 1:
        return _run_inline(config, jobs, callback)
    return _run_pool(config, jobs, workers, callback)


T = TypeVar("T")
R = TypeVar("R")


def run_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int = 1,
    backend: str = "local",
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """``[fn(t) for t in tasks]`` on a backend, in order; ``on_result(i, r)`` as each ends.

    The general form of ``run_jobs`` for runs of several table configurations (``rami
    ladder``): ``fn`` and the tasks must pickle (a module-level function, plain data).
    """
    if backend not in BACKENDS:
        raise InputError(f"unknown backend {backend!r}: choose local or ray")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError("--workers must be at least 1")
    callback = on_result or (lambda _i, _r: None)
    results: dict[int, R] = {}
    if backend == "local" and workers == 1:
        for i, task in enumerate(tasks):
            results[i] = fn(task)
            callback(i, results[i])
    elif backend == "local":
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        try:
            pending: dict[Future[R], int] = {}
            queue = list(reversed(range(len(tasks))))
            while queue or pending:
                while queue and len(pending) < workers * 4:
                    i = queue.pop()
                    pending[pool.submit(fn, tasks[i])] = i
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    i = pending.pop(fut)
                    results[i] = fut.result()
                    callback(i, results[i])
        except BaseException:
            # a stop (Ctrl-C) or a failure: the games queued are dropped and the workers'
            # games in play ended, rather than played to their end unseen
            pool.shutdown(wait=False, cancel_futures=True)
            for child in multiprocessing.active_children():
                child.terminate()
            raise
        pool.shutdown()
    else:
        _ray_tasks(fn, tasks, workers, results, callback)
    return [results[i] for i in range(len(tasks))]


def _ray_tasks(
    fn: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    results: dict[int, R],
    callback: Callable[[int, R], None],
) -> None:
    ray, started = _start_ray(workers)
    try:
        remote = ray.remote(num_cpus=1)(fn)
        index: dict[object, int] = {}  # Ray's object refs
        queue = list(reversed(range(len(tasks))))
        while queue or index:
            while queue and len(index) < workers * 4:
                i = queue.pop()
                index[remote.remote(tasks[i])] = i
            done, _ = ray.wait(list(index), num_returns=1)
            for ref in done:
                i = index.pop(ref)
                results[i] = ray.get(ref)
                callback(i, results[i])
    finally:
        if started:
            ray.shutdown()
