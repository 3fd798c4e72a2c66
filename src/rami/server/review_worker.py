"""The review process of the web replay (``python -m rami.server.review_worker``).

The server (``rami.server.replays.ProcessReviewer``) writes one JSON line on stdin:
``{"doc": <a deal's to_json>, "seat": n, "samples": n | null}``; this process answers
with JSON lines on stdout: ``{"progress": [done, total]}``… then ``{"done": <review>}``
or ``{"error": "one line"}``. A process of its own, so that a review's CPU never holds
the server's interpreter lock (in a thread it delayed the tables' event loop).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping

from rami.errors import InputError
from rami.review import ReviewDeal, review

__all__ = ["main"]


def _say(message: Mapping[str, object]) -> None:
    sys.stdout.write(json.dumps(message, ensure_ascii=True) + "\n")
    sys.stdout.flush()


def main() -> int:
    if hasattr(os, "nice"):
        os.nice(10)  # the tables come first
    try:
        request = json.loads(sys.stdin.readline())
        doc = dict(request["doc"])
        seat = int(request["seat"])
        item = ReviewDeal(str(doc["game"]), doc, 1, seat)
        result = review(
            item,
            seat,
            lambda done, total: _say({"progress": [done, total]}),
            samples=request.get("samples"),
        )
        _say({"done": result.to_json()})
    except InputError as exc:
        _say({"error": str(exc)})
    except Exception as exc:  # reported to the job, never raised into the server
        _say({"error": f"the review failed: {type(exc).__name__}: {exc}"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
