"""The people who run the card room: operators, their actions on accounts, the event log of
every one of them, the operator API and ``sevenstud admin`` (docs/operators.md).

An operator is a player with a role (``players.role``). Everything an operator does goes
through the same ledger and rooms as play does and leaves a line in the append-only event log
(:mod:`.log`); nothing an operator sees shows a down card of a hand in progress.
"""

SCOPES = {
    "accounts:read": "find and look at accounts",
    "accounts:write": "move chips, suspend, ban and lift, grant and revoke the role",
    "events:read": "read the event log",
    "tables:read": "list the house's tables and their settings",
    "tables:write": "open, edit and close the house's tables",
    "tournaments:read": "list tournaments, templates and the schedule",
    "tournaments:write": "create, schedule, pause, resume, cancel and announce tournaments",
    "chat:read": "read chat logs and players' reports",
    "chat:write": "mute players and keep the list of refused words",
}
"""What a token of the operator API may do, by scope (standard library only, here: the
command line lists them without the server extra)."""
