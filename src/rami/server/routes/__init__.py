"""The web app's routes, one ``APIRouter`` per concern; ``rami.server.app`` assembles them.

- ``pages``: the HTML pages (lobby, table, rules);
- ``operations``: health, readiness and metrics;
- ``lobby``: the games and their rules;
- ``tables``: create, list, read, join, invite, start;
- ``play``: a seat's view, actions, the next deal, hints;
- ``records``: a table's replays and its open record;
- ``socket``: the table's WebSocket.
"""
