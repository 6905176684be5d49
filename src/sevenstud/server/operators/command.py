"""``sevenstud admin``: make the room's operators from the host's command line
(docs/operators.md, "Operators").

- ``sevenstud admin create NAME``: a new account that is an operator, its password asked for
  twice at the terminal (never on the command line, where other users of the host see it), or
  read from the first line of ``--password-file``;
- ``sevenstud admin grant NAME`` / ``revoke NAME``: an existing account made an operator, or a
  player again;
- ``sevenstud admin token LABEL --scope SCOPE ...``: a token of the operator API, printed once
  (``--revoke ID`` revokes one).

Each writes its line in the event log, by ``command line``. Whoever may run the command on the
host may do this: the database's file or URL is the key.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from sevenstud.server.operators import SCOPES

# The parser's part (add_arguments) is the standard library's alone: `sevenstud --help` works
# without the server extra. The command imports the card room when it runs.


def add_arguments(parser: argparse.ArgumentParser, database_help: str) -> None:
    """``sevenstud admin``'s subcommands and options."""
    verbs = parser.add_subparsers(
        dest="admin", required=True, metavar="create|grant|revoke|token|prune-guests"
    )
    create = verbs.add_parser("create", help="a new account that is an operator (asks for its password)")
    create.add_argument("name", metavar="NAME")
    create.add_argument(
        "--password-file",
        type=Path,
        default=None,
        metavar="FILE",
        help="the password: FILE's first line (default: asked at the terminal)",
    )
    verbs_of_roles = (("grant", "make an account an operator"), ("revoke", "make an operator a player again"))
    for verb, what in verbs_of_roles:
        made = verbs.add_parser(verb, help=what)
        made.add_argument("name", metavar="NAME")
    token = verbs.add_parser("token", help="a token of the operator API (printed once), or --revoke ID")
    token.add_argument("label", metavar="LABEL", nargs="?", help="what the token is for")
    token.add_argument(
        "--scope",
        action="append",
        default=None,
        choices=sorted(SCOPES),
        help="what it may do; repeat for more (default: none, which is refused)",
    )
    token.add_argument(
        "--revoke", type=int, default=None, metavar="ID", help="revoke token ID instead (default: none)"
    )
    prune = verbs.add_parser(
        "prune-guests", help="delete guests unused for a while, their chips back to the bank"
    )
    prune.add_argument(
        "--unused-days",
        type=int,
        default=30,
        metavar="N",
        help="prune guests made and last used more than N days ago (default: 30)",
    )
    for made in verbs.choices.values():
        made.add_argument("--database", default=None, metavar="URL", help=database_help)


def _password(args: argparse.Namespace) -> str:
    from sevenstud.server.operators import accounts

    if args.password_file is not None:
        try:
            lines = args.password_file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise accounts.OperatorError(f"--password-file: {error}") from None
        return lines[0] if lines else ""
    first = getpass.getpass(f"password for {args.name}: ")
    if getpass.getpass("the same again: ") != first:
        raise accounts.OperatorError("the two passwords differ")
    return first


def admin_command(args: argparse.Namespace) -> int:
    """Run ``sevenstud admin``: exit 0 when done, 1 with one line saying why not."""
    from sevenstud.server.operators import accounts, log
    from sevenstud.server.store import StoreError, open_store

    try:
        store = open_store(getattr(args, "database", None))
    except StoreError as error:
        print(f"sevenstud admin: {error}", file=sys.stderr)
        return 1
    try:
        if args.admin == "token":
            return _token(store, args)
        if args.admin == "prune-guests":
            from sevenstud.server.operators import guests

            done = guests.prune(store, log.COMMAND_LINE, args.unused_days)
            print(
                f"sevenstud admin: {done['guests']} guests pruned ({done['deleted']} deleted), "
                f"{done['chips']} chips back to the bank"
            )
            return 0
        if args.admin == "create":
            accounts.create(store, log.COMMAND_LINE, args.name, _password(args))
            print(f"sevenstud admin: {args.name} is an operator (the operator API: /api/admin/)")
        else:
            role = accounts.OPERATOR if args.admin == "grant" else accounts.PLAYER
            accounts.set_role(store, log.COMMAND_LINE, args.name, role)
            became = "an operator" if role == accounts.OPERATOR else "a player"
            print(f"sevenstud admin: {args.name} is {became}")
    except accounts.OperatorError as error:
        print(f"sevenstud admin: {error}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


def _token(store: Any, args: argparse.Namespace) -> int:
    from sevenstud.server.operators import accounts, log, tokens

    if (args.label is None) == (args.revoke is None):
        raise accounts.OperatorError("give a LABEL and --scope to make a token, or --revoke ID")
    if args.revoke is not None:
        tokens.revoke(store, log.COMMAND_LINE, args.revoke)
        print(f"sevenstud admin: token {args.revoke} revoked")
        return 0
    token_id, token = tokens.make(store, log.COMMAND_LINE, args.label, args.scope or [])
    print(f"sevenstud admin: token {token_id} ({args.label}), shown this once:")
    print(token)
    return 0
