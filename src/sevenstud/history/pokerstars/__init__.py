"""PokerStars text hand histories of 7 Card Stud Hi/Lo, 7 Card Stud and Razz: read, replay, write.

**Reading** is streaming: :func:`read_hands` returns a :class:`HandReader` that yields one
:class:`PokerStarsHand` at a time (or, for a hand it cannot read, a :class:`PokerStarsError`
naming the file, the line and what was expected, and then goes on with the next hand), and counts
the hands of other games of a mixed-game file that it skips (:attr:`HandReader.skipped`). It reads
cash and tournament hands, any currency or play chips, the old ``Game #`` and the newer ``Hand #``
headers, byte-order marks and CRLF line endings. Chips are integers: cents for money, tournament
and play chips as they are.

**Replaying** (:func:`play_pokerstars`) rebuilds the deck from the cards the file shows, in our
dealing order, with the cards nobody saw filled in, and plays every line through
:class:`~sevenstud.hand.Hand` (``auto_showdown=False``, the file's rake passed as ``rake=``): the
bring-in player, each action's legality and amount, the uncalled bets returned, the community
card, the showdown and every award must come out as the file says. The first line where our engine
differs raises :class:`PokerStarsError` with that line.

**Writing** (:func:`format_hand`) writes any hand of ours in the same format, from one viewer's
point of view (a ``hero`` seat, a spectator, or every card: a :class:`TextRecord`), so that
:func:`read_hands` reads it back into the same hand.

The reading, the replay and the writing are those of every room's text history
(:mod:`sevenstud.history.text`); this package names PokerStars' dialect of them and adds what only
PokerStars writes (:mod:`.summary`, its tournament summaries).

The facts of the format that matter (checked on real PokerStars stud hands): stakes in the header
are small bet/big bet; ``raises A to B``: B is the player's street total; completing the bring-in
reads as a raise, and a forced player who completes at once ``bets``; ``Uncalled bet (X) returned
to P``; the amounts collected add up to ``Total pot`` minus ``Rake``; on a hi/lo split the high
half is paid first and side pots before the main pot; the showdown lists a player's cards in
dealing order. A site may list the down cards (two on 3rd street, one on 7th) in its own order
(Full Tilt does at its showdowns): a shown or mucked hand whose down cards are the ones dealt, as
a set, is the same hand and our engine keeps the dealt order; the up cards must be in their
places, and a card that was not dealt is refused naming the line. Where the deck runs out on 7th
street, we write (and read) the community card as ``*** RIVER *** [Xx]``, and a showdown then
lists the player's own six cards.

>>> import io
>>> from sevenstud.deck import Deck
>>> from sevenstud.games import Stakes, StudHiLo
>>> from sevenstud.hand import Hand
>>> hand = Hand(StudHiLo(Stakes(1, 2, 5, 10)), [100, 100], Deck.seeded(7))
>>> _ = hand.act("bring-in"); _ = hand.act("fold")
>>> text = format_hand(hand, players=["Ann", "Bob"], hand_id=1)
>>> print(text.splitlines()[0])
PokerStars Hand #1:  7 Card Stud Hi/Lo Limit (5/10) - 2024/01/01 00:00:00 ET
>>> (parsed,) = read_hands(io.StringIO(text))
>>> played = play_pokerstars(parsed)
>>> played.hand.stacks == hand.stacks
True
"""

from sevenstud.games import GameCode
from sevenstud.history.pokerstars.command import hand_record
from sevenstud.history.text.model import (
    GAME_TITLES,
    STREET_TITLES,
    Ante,
    BetLine,
    BetVerb,
    Collect,
    Deal,
    Event,
    Muck,
    NoLow,
    NotPokerStarsError,
    PokerStarsError,
    PokerStarsHand,
    Returned,
    Seat,
    Show,
    ShowdownMark,
    StreetMark,
    describe_show,
    format_amount,
    show_description,
)
from sevenstud.history.text.pokerstars import HandReader, format_hand, looks_like_pokerstars, read_hands
from sevenstud.history.text.replay import PlayedHand, play_pokerstars
from sevenstud.history.text.writer import TextRecord

__all__ = [
    "GAME_TITLES",
    "STREET_TITLES",
    "Ante",
    "BetLine",
    "BetVerb",
    "Collect",
    "Deal",
    "Event",
    "GameCode",
    "HandReader",
    "Muck",
    "NoLow",
    "NotPokerStarsError",
    "PlayedHand",
    "PokerStarsError",
    "PokerStarsHand",
    "Returned",
    "Seat",
    "Show",
    "ShowdownMark",
    "StreetMark",
    "TextRecord",
    "describe_show",
    "format_amount",
    "format_hand",
    "hand_record",
    "looks_like_pokerstars",
    "play_pokerstars",
    "read_hands",
    "show_description",
]
