# ruff: noqa: E501
"""Every refusal a player or a client meets, once: a code, its English template
(:data:`SENTENCES`), and the exception that carries them, ``Refusal("seat_taken", seat=3,
player="'ann'")``. ``str()`` of a refusal is its English (for logs, tests and the engine's own
users); :meth:`Refusal.said` says it in a catalog's language by its code and parameters, never by
reading its English back. A parameter that is itself words (another refusal, or :class:`Words`:
"an integer", "3 minutes") is said in that language too, where it stands.

The card room (:mod:`sevenstud.server`), the terminal and the equity jobs raise the exceptions
built on :class:`Refusal` (``RoomError``, ``AuthError``, ``RateLimited``, ``IllegalAction``,
``TableError`` ...); the server answers the ``error`` message, an HTTP ``detail`` and a close
reason in the client's language from the code alone.

>>> from sevenstud.i18n import translation
>>> error = Refusal("seat_taken", seat=3, player="'ann'")
>>> str(error), error.code
("seat 3 is taken (by 'ann')", 'seat_taken')
>>> error.said(translation("et"))
"koht 3 on võetud ('ann')"
"""

from __future__ import annotations

import re
from typing import Any

from sevenstud.i18n import N_, Translations

__all__ = ["SENTENCES", "WORDS", "Refusal", "Words", "said"]

SENTENCES: dict[str, str] = {
    # the card room (server/tables/room.py, server/app.py, server/connection.py)
    "table_stopped": N_("this table has stopped"),
    "not_logged_in": N_("log in or play as a guest first"),
    "hello_first": N_("say hello first (the protocol version and the table)"),
    "not_seated": N_("you are not seated at this table"),
    "bots_for_seated_players": N_("only a player seated at this table adds or removes its bots"),
    "bots_for_owner": N_("only the table's owner (who opened it) adds or removes its bots"),
    "seat_offered": N_("seat {seat} is offered from the waiting list"),
    "seat_offered_until": N_("seat {seat} is offered to the first on the waiting list until {until}"),
    "seated_already": N_("you are seated at this table"),
    "waiting_already": N_("you are on the waiting list already, number {number}"),
    "seat_free_sit": N_("seat {seat} is free: sit in it"),
    "not_waiting": N_("you are not on the waiting list of this table"),
    "malformed_message": N_("malformed message: {why}"),
    # the card room's HTTP answers (server/accounts/auth.py, server/app.py), said in Accept-Language
    "name_taken": N_("the name {name} is taken"),
    "name_form": N_("a name is 3 to 20 letters, digits, '_' or '-'"),
    "name_reserved": N_("names starting with 'guest' or 'bot' are kept for guests and bots"),
    "name_kept_for_dealer": N_("names starting with {word} are kept for the dealer"),
    "password_short": N_("a password has at least {count} characters"),
    "password_long": N_("a password has at most 200 characters"),
    "wrong_login": N_("no account with that name and password"),
    "refill_balance_high": N_("a refill is for a balance under {limit} chips (you have {balance})"),
    "refills_used": N_("{count} refills a day, and you have had them today"),
    "bots_fill_table": N_("{bots} bots leave no seat free at a table of {seats}"),
    "too_many_messages": N_("too many messages: slow down"),
    "no_table": N_("no table {table}"),
    "table_elsewhere": N_("table {table} is served at {where}"),
    "action_out_of_date": N_(
        "that action is for hand {hand}, street {street}: it is hand {now_hand}, street {now_street} now"
    ),
    "buy_in_over_balance": N_("a buy-in of {amount} is more than your balance of {balance}"),
    "top_up_over_balance": N_("a top-up of {amount} is more than your balance"),
    "balance_below_buy_in": N_("your balance of {balance} is below the table's minimum buy-in of {amount}"),
    # the table (table.py) and the hand (hand.py, betting.py)
    "seat_taken": N_("seat {seat} is taken (by {player})"),
    "player_seated_already": N_("player {player} already sits in seat {seat}"),
    "buy_in_range": N_("the buy-in must be between {low} and {high} chips, not {amount}"),
    "top_up_in_hand": N_("{player} is in the hand in progress: chips can be added only between hands"),
    "top_up_above_maximum": N_(
        "a top-up of {amount} would take {player} to {stack}, above the maximum of {high} (at most {more} more)"
    ),
    "leaving_already": N_("{player} is leaving the table already"),
    "sitting_out_already": N_("{player} is sitting out already"),
    "leaving_table": N_("{player} is leaving the table"),
    "sitting_in_already": N_("{player} is sitting in already"),
    "short_of_ante": N_(
        "{player} has {stack} chips and cannot post the ante: top up first (at least {more} more)"
    ),
    "leaving_after_hand": N_("{player} is leaving already (when the hand ends)"),
    "no_hand": N_("no hand is being played"),
    "seat_not_in_hand": N_("seat {seat} is not in hand {hand}"),
    "not_your_turn": N_("seat {seat} cannot act now: it is seat {other}'s turn"),
    "time_ran_out": N_("seat {seat}'s time ran out at {deadline}: the table applies time_out"),
    "seat_refused": N_("seat {seat} (seat {hand_seat} of the hand): {error}"),
    "hand_over": N_("the hand is over: nobody is to act"),
    "showdown_show_or_muck": N_("seat {seat} is at the showdown and may only show or muck (not {action})"),
    "amount_needed": N_("seat {seat} must say how much to {kind}: {amounts} (legal: {options})"),
    "amount_must_be": N_("seat {seat} cannot {action}: the amount must be {amount} (legal: {options})"),
    "action_not_legal": N_("seat {seat} cannot {action}: {reason} (legal: {options})"),
    "player_not_seated": N_("player {player} is not seated at this table"),
    "no_dead_seat": N_("no seat {seat} to be dead at this hand (seats 0 to {last})"),
    "seat_out_of_range": N_("seats are numbered 1 to {seats}, not {seat}"),
    "chips_not_positive": N_("{what} must be a positive whole number of chips, not {amount}"),
    "fold_before_bring_in": N_("seat {seat} cannot fold: the bring-in must be posted or completed first"),
    # the terminal's words for the same (terminal_text.in_your_words)
    "you_amount_must_be": N_("you cannot {action}: the amount must be {amount} (legal now: {options})"),
    "you_cannot": N_("you cannot {action}: {reason} (legal now: {options})"),
    "amount_needed_now": N_("seat {seat} must say how much to {kind}: {amounts} (legal now: {options})"),
    # why an action is not legal (betting.why_not)
    "check_facing_bet": N_("cannot check facing a bet of {amount}"),
    "fold_without_bet": N_("nothing to call: check instead of folding (this game's fold_without_bet is off)"),
    "betting_capped": N_("the betting is capped ({cap} bets and raises made)"),
    "betting_not_reopened": N_("the betting was not reopened to this seat (a short all-in raise)"),
    "bring_in_first": N_("the bring-in must be posted or completed first"),
    "kind_not_possible": N_("{kind} is not possible now"),
    # the websocket's refusals of a message's form (server/app.py, server/protocol.py, rooms.py)
    "binary_frame": N_("a binary frame: every message is JSON text, sent as a text frame"),
    "message_too_long": N_("a message is at most {count} bytes"),
    "protocol_version": N_("protocol version {version}: this server speaks {ours}"),
    "no_such_message": N_("no such message here: {message}"),
    "tournament_table_seats": N_("a tournament table: its seats are the tournament's (no {message} here)"),
    "type_missing": N_("type: missing (every message names its type: hello, act, sit ...)"),
    "type_not_string": N_("type: expected a string naming the message, got {got}"),
    "type_unknown": N_("type: no message is called {name} (one of {tags})"),
    "message_not_object": N_("a message is a JSON object, got {got}"),
    "field_missing": N_("{field}: missing (the {tag} message needs it)"),
    "field_unknown": N_("{field}: the {tag} message has no such field"),
    "field_type": N_("{field}: expected {what}, got {got}"),
    "field_too_short": N_("{field}: at least {count} characters"),
    "field_too_long": N_("{field}: at most {count} characters"),
    "field_too_small": N_("{field}: at least {least}, got {value}"),
    "field_too_large": N_("{field}: at most {most}, got {value}"),
    "field_surrogate": N_(
        "{field}: text with an unpaired surrogate (\\ud800 to \\udfff alone is not Unicode)"
    ),
    "invalid_json": N_("invalid JSON: {why}"),
    "and_more": N_("{said} (and {count} more)"),
    # the websocket's close reasons (server/connection.py, server/app.py)
    "too_far_behind": N_("too far behind: reconnect and say hello with the last number you saw"),
    "table_moved": N_("this table is no longer served here: ask the lobby where it is"),
    "table_closed": N_("this table has closed"),
    "session_ended": N_("session ended"),
    "logged_out": N_("logged out"),
    "origin_not_allowed": N_("origin or host not allowed"),
    # the operators' side (server/health.py, server/operators/, server/accounts/auth.py)
    "metrics_forbidden": N_("metrics are served to the addresses given with --metrics-from"),
    "operators_only": N_("this is for the room's operators"),
    "operator_sign_in_again": N_("sign in again: an operator acts within 5 minutes of signing in"),
    "suspended_until": N_("this account is suspended until {ends}: {why}"),
    "banned_why": N_("this account is banned: {why}"),
    "suspended": N_("this account is suspended"),
    "banned": N_("this account is banned"),
    "operator_own_role": N_("an operator does not revoke their own role: another operator does"),
    "no_account_named": N_("no account named {name}"),
    "operator_reason_needed": N_("say why: every operator action is written down with its reason"),
    "operator_reason_form": N_("a reason is one line of at most 500 printable characters"),
    "chip_move_amount": N_("a chip move is a whole number of chips other than 0, not {amount}"),
    "chip_move_short": N_("{name} has {balance} chips: {amount} cannot be taken"),
    "suspension_in_past": N_("a suspension ends in the future"),
    "operator_revoke_first": N_("{name} is an operator: revoke that first"),
    "not_suspended": N_("{name} is not suspended"),
    "guest_cannot_operate": N_("{name} is a guest: only an account with a password runs the room"),
    "operator_already": N_("{name} is an operator already"),
    "player_already": N_("{name} is a player already"),
    "token_not_live": N_("this token is not a live token of this room"),
    "token_lacks_scope": N_("this token lacks the scope {scope}"),
    "token_label_form": N_("a token's label is one line of 1 to 60 printable characters"),
    "token_scopes": N_("a token's scopes are some of {scopes}, not {given}"),
    "no_live_token": N_("no live token {token}"),
    # the limits (server/limits.py, server/app.py, server/tables/chat.py)
    "too_many": N_("too many {what}: {count} per {span} (try again in {seconds} s)"),
    "too_many_failed_logins": N_("too many failed log-ins for {whom}: try again in {seconds} s"),
    "passwords_busy": N_("the server is busy checking passwords: try again in a moment"),
    "connections_per_address": N_("too many connections from your address: {count} at once"),
    "connections_per_account": N_("too many connections for your account: {count} at once"),
    "tables_open": N_(
        "you have {count} tables open: a table of nobody but bots, unwatched, closes by itself after a while"
    ),
    # the edge's refusals (server/edge.py)
    "host_not_served": N_("this server does not answer to the host {host}"),
    "cross_site": N_("refused: a request from another site ({site}) may not change anything here"),
    "cross_origin": N_("refused: a request from {origin} may not change anything here"),
    "body_not_json": N_("a request body is JSON (Content-Type: application/json), not {media}"),
    "content_length_not_number": N_("Content-Length {length} is not a number"),
    "body_too_large_declared": N_("a request body is at most {limit} bytes (this one says {declared})"),
    "body_too_large": N_("a request body is at most {limit} bytes"),
    "head_too_large": N_("a request's line and headers are at most {count} bytes"),
    # the chat and the notes (server/tables/chat.py, server/accounts/notes.py)
    "chat_empty": N_("a chat message needs some text"),
    "chat_not_plain": N_("chat is plain text on one line: no {what} (U+{code})"),
    "chat_for_seated_players": N_("only players seated at this table chat here: spectators read the chat"),
    "name_too_long_compared": N_("name: no player has a name that long once compared"),
    "no_note": N_("you have no note on {name}"),
    "note_control": N_("a note is plain text: no control characters but line breaks and tabs"),
    "notes_full": N_("you have {count} notes, the most kept: delete one first"),
    # the hands and the history (server/accounts/downloads.py, server/accounts/history.py)
    "no_finished_hand": N_("no finished hand {hand} of yours"),
    "hand_does_not_replay": N_("hand {number} of table {table} does not replay: {error}"),
    "no_finished_hands": N_("you have no finished hands yet"),
    "downloads_at_once": N_("you are downloading your hands already: {count} at a time"),
    "filter_game": N_("game: one of {games}, not {game}"),
    "filter_stakes": N_("stakes: the small and the big bet as 5/10, not {stakes}"),
    "filter_card": N_("cards: {token} is neither a card (As) nor a rank (A)"),
    "filter_too_many_cards": N_("cards: a stud hand holds at most 7 cards"),
    "filter_date": N_("{field}: a date as 2026-12-01 (UTC), not {text}"),
    "filter_name": N_("name: a player's name is 1 to 40 characters"),
    # the bots (server/tables/keeper.py)
    "unknown_bot": N_("unknown bot {kind}: expected one of {kinds}"),
    "no_bot_in_seat": N_("no bot sits in seat {seat}"),
    "bot_name_prefix": N_("a bot's name starts with {prefix}"),
    # the tournaments (server/tournaments/routes.py, server/tournaments/service.py, tournament/director.py)
    "unknown_state": N_("unknown state {state}: expected {states}"),
    "no_finished_tournament": N_("no finished tournament {tournament}"),
    "no_tournament": N_("no tournament {tournament}"),
    "clock_too_fast": N_("this server runs clocks at most {speed} times the wall's"),
    "bots_fill_sit_and_go": N_("bots fill a sit-and-go, leaving a seat for a person at least"),
    "tournament_elsewhere": N_("tournament {tournament} is directed by another server ({where})"),
    "tournament_recovering": N_("tournament {tournament} is being recovered: try again in a moment"),
    "tournament_busy": N_("tournament {tournament} is busy: try again in a moment"),
    "tournament_state": N_("tournament {tournament} is {state}"),
    "entry_over_balance": N_("the entry costs {amount}, more than your balance of {balance}"),
    "rebuy_over_balance": N_("a rebuy costs {amount}, more than your balance of {balance}"),
    "add_on_over_balance": N_("the add-on costs {amount}, more than your balance of {balance}"),
    "tournament_full": N_("the tournament is full"),
    "registration_closed": N_("registration is closed"),
    "unregister_started": N_("a tournament that has started cannot be unregistered from"),
    "rebuys_over": N_("rebuys are over"),
    "re_entry_needs_late_registration": N_("re-entries need late registration: a scheduled tournament's"),
    "no_deal_answer": N_("no deal answer {answer}: propose, accept or decline"),
    "late_registration_scheduled": N_("late registration is a scheduled tournament's"),
    "no_entry_to_make_again": N_("{player} has no entry to make again: register instead"),
    "no_re_entries": N_("this tournament has no re-entries"),
    "re_entries_over": N_("re-entries are over: registration is closed"),
    "re_entries_used": N_("{player} has made every re-entry allowed ({limit})"),
    "no_rebuys": N_("this tournament has no rebuys"),
    "deal_at_final_table": N_("a deal is made at the final table"),
    "deal_talked_over": N_("a deal is being talked over already ({player} asked)"),
    "deal_time_positive": N_("a deal is talked over for a positive time, not {seconds}"),
    "no_deal_proposed": N_("no deal has been proposed"),
    "deal_after_hand": N_("the hand in progress ends first: the offer is made on the stacks then"),
    "rebuys_over_bubble": N_("rebuys are over: the field closed on the bubble"),
    "no_add_on": N_("this tournament has no add-on"),
    "add_on_level": N_("the add-on is on only in the level after the rebuys"),
    "deal_in_the_money": N_("a deal is possible once every player left is in the money"),
    "already_registered": N_("{player} is already registered"),
    "still_in_tournament": N_("{player} is still in the tournament"),
    "not_registered": N_("{player} is not registered"),
    "rebuys_used": N_("{player} has made every rebuy allowed ({limit})"),
    "rebuy_stack_high": N_("{player} has more than the starting chips and cannot rebuy"),
    "add_on_taken": N_("{player} has taken the add-on already"),
    "not_playing_in_tournament": N_("{player} is not playing in this tournament"),
    "not_in_tournament": N_("{player} is not in the tournament"),
    # a tournament's settings as a player asks for them (tournament/settings.py, structure.py)
    "setting_too_small": N_("{name} must be a whole number of at least {least}, not {value}"),
    "sit_and_go_entries": N_("a sit-and-go is one table: max_entries cannot exceed seats"),
    "scheduled_needs_start": N_("a scheduled tournament needs start_at"),
    # the equity jobs (server/study/jobs.py, server/study/worker.py): refused, failed, cut short
    "exact_too_much_work": N_(
        "exact counting of this position is {work} outcomes of work ({method}); this server counts at most {most} exactly (max_outcomes): ask for Monte Carlo, or give more of the cards"
    ),
    "too_many_trials": N_(
        "{trials} trials asked for; this server draws at most {most} in one job (max_trials)"
    ),
    "equity_stopping": N_("the server is stopping: no equity jobs now"),
    "equity_client_busy": N_(
        "your equity jobs running now: {count}; at most {most} run at once for one client (per_client): wait for one to end"
    ),
    "equity_server_busy": N_(
        "the equity calculator is busy: {count} running, the most this server runs at once (running): try again shortly"
    ),
    "equity_starts_rate": N_("too many equity jobs asked for: at most {most} a minute (starts_per_minute)"),
    "equity_polls_rate": N_(
        "too many requests about equity jobs: at most {most} a second (polls_per_second)"
    ),
    "no_equity_job": N_("no equity job {job} (a job is kept {minutes} min after it ended)"),
    "equity_memory": N_("the equity job needed more memory than this server gives one job (memory_mb)"),
    "equity_job_failed": N_("the equity job failed: {kind}"),
    "equity_job_not_started": N_("the equity job could not start: {problem}"),
    "equity_worker_ended": N_("the equity job's worker ended without an answer"),
    "cut_short": N_("cut short"),
    "cut_short_deadline_trials": N_(
        "cut short at its deadline of {seconds} s (seconds): {drawn} of the {trials} trials were drawn; the result is theirs (its standard errors are larger)"
    ),
    "cut_short_stopping_trials": N_(
        "cut short, the server stopping: {drawn} of the {trials} trials were drawn; the result is theirs (its standard errors are larger)"
    ),
    "cut_short_deadline_exact": N_(
        "cut short at its deadline of {seconds} s (seconds), {percent}% counted: exact counting of this position takes longer than this server allows; ask for Monte Carlo"
    ),
    "cut_short_stopping_exact": N_("cut short, the server stopping, with {percent}% counted"),
    "cut_short_deadline_none": N_(
        "cut short at its deadline of {seconds} s (seconds) before its first trials were drawn"
    ),
    "cut_short_stopping_none": N_("cut short, the server stopping, before its first trials were drawn"),
    # an equity job's position (equity.py), as a client gives it
    "not_a_card": N_("not a card: {token} in {hand} (expected e.g. 'As 2s 3s 7h', '?? ?? 7h')"),
    "unknown_game": N_("unknown game {game}: expected one of {games}"),
    "player_count": N_("stud is for {low} to {high} players, not {count}"),
    "too_few_cards": N_(
        "player {seat} has too few cards ({count}): give at least the 3rd-street cards (two down and the door card; ?? for a card you do not know)"
    ),
    "too_many_cards_held": N_("player {seat} has too many cards ({count}): a stud hand has at most 7"),
    "different_streets": N_(
        "the players are on different streets (cards per player: {counts}): give every player the same number of cards"
    ),
    "community_card_unknown": N_("the community card must be one known card, not {card}"),
    "community_card_street": N_(
        "a community card is dealt only on 7th street to players holding six cards, not {count}"
    ),
    "card_twice": N_("the card {card} is given twice ({places})"),
    "too_many_cards": N_(
        "too many cards: {players} players holding {held} cards each and the dead cards ({dead}) need {total}, a deck has 52"
    ),
    "deck_short": N_("not enough cards: the deck cannot deal {street}th street to {players} players"),
    "deck_short_seventh": N_(
        "not enough cards: the deck cannot deal 7th street to {players} players, not even a community card"
    ),
    "deck_empty": N_("not enough cards left to deal"),
    "exact_too_much_memory": N_(
        "exact counting would hold {work} completions in memory (the limit is {limit}): too many unknown cards; use Monte Carlo (trials)"
    ),
    "exact_too_many_ways": N_(
        "exact enumeration would list {ways} ways for the last player's cards at once: too many unknown cards; use Monte Carlo (trials)"
    ),
    # the house's standing tables and the room's settings (server/operators/house_tables.py)
    "player_tables_off": N_(
        "players do not open tables in this room: sit at one of the house's tables (Play now finds a seat)"
    ),
    "bots_for_house": N_("this is one of the house's tables: its bots are the room's to add or remove"),
    "no_house_table": N_("no standing table {table}"),
    "house_table_closed": N_("standing table {table} is closed already"),
    "house_rake": N_("the rake is a percentage from 0 to under 100, with at most 2 decimals, not {given}"),
    # the console's accounts (server/operators/accounts.py, server/operators/resets.py)
    "renamed": N_("this account was renamed to {name}: sign in with the new name"),
    "rename_same": N_("{name} is that account's name already"),
    "rename_while_seated": N_("{name} is seated at a table: rename them when they have left it"),
    "reset_for_guest": N_("{name} is a guest: a guest has no password to reset"),
    "reset_link_not_live": N_("this link is not a live password-reset link: ask an operator for a new one"),
    "prune_days": N_("unused days: a whole number from 1 to 3650, not {days}"),
    # the chat's moderation (server/operators/chat.py, server/operators/chat_routes.py)
    "chat_muted": N_("you are muted in chat until {ends}: {why}"),
    "chat_word_refused": N_("that line was not sent: the room does not allow the word \"{word}\" in chat"),
    "chat_line_unknown": N_("no such chat line: it may be too old to report"),
    "chat_report_own_line": N_("you cannot report your own line"),
    "chat_reported_already": N_("you have reported this line already"),
    "chat_report_reason_form": N_("a report's reason is one line of at most {most} printable characters"),
    "no_open_chat_report": N_("no open chat report {report}"),
    "not_muted": N_("{name} is not muted"),
    "chat_word_form": N_("a refused word is 1 to {most} letters, digits, spaces, ' or -, with a letter among them"),
    "chat_word_listed": N_("{word} is on the list already"),
    "chat_word_not_listed": N_("{word} is not on the list"),
    "no_invitation": N_("no such table, or no invitation to it"),
    "no_pass": N_("{player} has not asked to join this table"),
    "remove_host": N_("the host of a table cannot be removed from it"),
    "private_sit_and_go": N_("only a sit-and-go can be private, not {template}"),
    "remove_after_hand": N_(
        "{player} is seated while a hand is being played: remove them when it ends (pausing the table stops the next deal)"
    ),
    # the tournaments' limits (server/limits.py, server/tournaments/service.py)
    "tournaments_open": N_(
        "you have {count} tournaments not over yet: make another once one of them has finished or been cancelled"
    ),
    "public_tournaments_house": N_(
        "only the house makes public tournaments: play the house's sit-and-go from the lobby, or open a private one"
    ),
    "house_tournaments_public": N_("the house's tournaments are public: a private sit-and-go is a player's to open"),
    "no_template": N_("there is no tournament template {template}"),
    "template_name_taken": N_("a tournament template named {name} exists already"),
    "template_in_use": N_("template {template} is used by schedule {schedule}: remove that schedule first"),
    "no_schedule": N_("there is no tournament schedule {schedule}"),
    "schedule_needs_time": N_("a daily schedule needs a time of day (HH:MM) and a time zone"),
    "unknown_zone": N_("{zone} is not a time zone known here (name one like Europe/Tallinn)"),
    "bad_time_of_day": N_("{time} is not a time of day: write HH:MM, from 00:00 to 23:59"),
    "schedule_needs_hours": N_("a schedule every N hours needs the hours, from 0.25 to 168"),
    "always_needs_sit_and_go": N_("only a sit-and-go can be always registering, and template {template} is not one"),
    "no_quick_sit_and_go": N_("the house has no sit-and-go always registering now: ask the room's operators"),
    "tournament_not_running": N_("tournament {tournament} is {state}: only a running tournament can be paused"),
    "tournament_paused_already": N_("tournament {tournament} is paused already"),
    "tournament_not_paused": N_("tournament {tournament} is not paused"),
    "tournament_over": N_("tournament {tournament} is {state} already: there is nothing to cancel"),
    "tournament_in_the_money": N_(
        "tournament {tournament} has paid prizes already, so it cannot be cancelled: pause it, or let it play to its end"
    ),
}
"""Every refusal by its code: the English template, its parameters in braces. A code is defined
here alone; the catalogs (``locale/*/LC_MESSAGES/sevenstud.po``) translate the template."""

WORDS: tuple[str, ...] = (
    # what a refusal's part may be (protocol.py's kinds of JSON value, limits.py's spans and
    # what is limited, a tournament's states): said again inside the sentence that holds it
    # an action's kind, as a refusal names it ("{kind} is not possible now"): the engine's word
    # ("call") was said as it is in every language
    N_("fold"),
    N_("check"),
    N_("call"),
    N_("bring-in"),
    N_("complete"),
    N_("bet"),
    N_("raise"),
    N_("show"),
    N_("muck"),
    N_("an integer"),
    N_("a string"),
    N_("a boolean"),
    N_("null"),
    N_("an array"),
    N_("an object"),
    N_("true or false"),
    N_("hour"),
    N_("minute"),
    N_("{count} hours"),
    N_("{count} minutes"),
    N_("{count} s"),
    N_("guests from your address"),
    N_("new tables from your address"),
    N_("operator API calls"),
    N_("log-in attempts from your address"),
    N_("chat messages"),
    N_("downloads of all your hands"),
    N_("this account"),
    N_("your address"),
    N_("untyped"),
    N_("the buy-in"),
    N_("a top-up"),
    N_("registering"),
    N_("running"),
    N_("break"),
    N_("finished"),
    N_("cancelled"),
    # where an equity position gives a card twice (equity.position)
    N_("player {seat} and player {other}"),
    N_("player {seat} twice"),
    N_("player {seat} and the dead cards"),
    N_("the dead cards twice"),
    N_("player {seat} and the community card"),
    N_("the dead cards and the community card"),
    # what plain text on one line refuses (server/plaintext.py)
    N_("control characters"),
    N_("line or paragraph separators"),
    N_("direction controls"),
    N_("invisible format characters"),
    N_("blank fillers"),
    # what a chat report's limit counts (server/tables/chat.py)
    N_("chat reports"),
    # the tournaments' limits (server/limits.py)
    N_("new tournaments from your address"),
    N_("tournament registrations"),
)
"""The words a refusal's parts are made of (:class:`Words`), translated where they stand."""

_WORDS = frozenset(WORDS)
_CODE = re.compile(r"[a-z][a-z0-9_]*")


def _filled(template: str, parts: dict[str, Any], tr: Translations | None) -> str:
    """``template`` with its parts: words among them in ``tr``'s language (English: None)."""
    said = {
        key: (value.said(tr) if tr is not None else str(value))
        if isinstance(value, Refusal | Words)
        else value
        for key, value in parts.items()
    }
    return template.format(**said)


class Words:
    """Words that stand inside a refusal (a kind of JSON value, a span of time, a tournament's
    state): a template of :data:`WORDS` and its parts, said in the refusal's language.

    >>> str(Words("{count} minutes", count=5))
    '5 minutes'
    """

    __slots__ = ("parts", "template")

    def __init__(self, template: str, /, **parts: Any) -> None:
        if template not in _WORDS:
            raise LookupError(f"no words {template!r} in sevenstud.refusals.WORDS")
        self.template, self.parts = template, parts

    def __str__(self) -> str:
        return _filled(self.template, self.parts, None)

    def __repr__(self) -> str:
        return f"Words({self.template!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Words) and (self.template, self.parts) == (other.template, other.parts)

    def __hash__(self) -> int:
        return hash(self.template)

    def said(self, tr: Translations) -> str:
        """The words in the language of ``tr``."""
        return _filled(tr.gettext(self.template), self.parts, tr)


class Refusal(Exception):
    """Something refused, by its ``code`` (a key of :data:`SENTENCES`) and ``params`` (the
    template's parts: plain values, or words said in the language too). ``str()`` is the
    English. A refusal raised with a sentence instead of a code (an error of the code's own,
    never shown to a player in another language) has no code and is said in English alone."""

    code: str | None
    params: dict[str, Any]

    def __init__(self, code: str, /, **params: Any) -> None:
        template = SENTENCES.get(code)
        if template is None:
            if params or _CODE.fullmatch(code):
                raise LookupError(f"no refusal coded {code!r} in sevenstud.refusals.SENTENCES")
            self.code, self.params = None, {}
            super().__init__(code)
            return
        self.code, self.params = code, params
        super().__init__(_filled(template, params, None))

    def said(self, tr: Translations) -> str:
        """The refusal in the language of ``tr``, from its code (its English when it has none)."""
        if self.code is None:
            return str(self)
        return _filled(tr.gettext(SENTENCES[self.code]), self.params, tr)


def said(error: BaseException, tr: Translations) -> str:
    """An error in the language of ``tr``: a :class:`Refusal` by its code, any other error in
    its own (English) words."""
    return error.said(tr) if isinstance(error, Refusal) else str(error)
