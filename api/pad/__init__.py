"""The table-side scorepad: HTML pages for a phone beside the cards (issue 5).

Every page works without JavaScript; ``static/pad.js`` only adds the live
deadwood of the tap grids and a few comforts. One blueprint, ``pad``
(:mod:`~api.pad.blueprint`: its hooks, error pages and shared helpers), whose
views live by family:

- :mod:`~api.pad.routes_game`: ``/`` (start a game), ``/games/<id>`` (the
  sheet), ``/games/<id>/rematch`` (a new game that follows this one);
- :mod:`~api.pad.routes_hands` (the form: :mod:`~api.pad.hand_page`, its card play
  checked by :mod:`~api.pad.hand_checks`): ``/games/<id>/hand`` (enter a hand: quick,
  cards or record; a deal), ``/games/<id>/hands/<n>/edit`` (correct one),
  ``/games/<id>/hands/<n>/void`` (void one), ``/games/<id>/undo``;
  :mod:`~api.pad.routes_hand_detail`: ``/games/<id>/hands/<n>`` (one hand) and its
  ``/replay`` (steps through its deal record);
- :mod:`~api.pad.routes_phones`: edit rights, ``/games/<id>/phones`` (who may
  edit, revoke, make a hand-over link), ``/games/<id>/handover`` and
  ``/games/<id>/join?key=...`` (take the right);
- :mod:`~api.pad.routes_tools`: ``/check`` (check a knock without a game),
  ``/replay`` (step through a pasted deal record), ``/pad/melds`` (JSON for the
  live read-out), ``/settings`` (the four-colour deck), ``/language`` (the language
  switch's cookie);
- :mod:`~api.pad.routes_tally`: ``/games/<id>/tally`` (the running tally of
  games chained by rematch), ``/players?name=...`` (a player's record; without a
  name the players known here) and ``/players/vs?name=...&other=...`` (two
  players head to head);
- :mod:`~api.pad.routes_events`: club nights: ``/events/new`` (create one),
  ``/events/<id>/director`` (pair rounds, tables and their QR cards),
  ``/events/<id>`` (read-only); :mod:`~api.pad.routes_round`: the table cards (one, or
  a round's four to an A4 page), the round clock and ``/events/<id>/wall`` (the big screen);
- :mod:`~api.pad.routes_seasons`: ``/seasons/new`` (create a season),
  ``/seasons/<id>`` (its table) and the wall's season table between rounds;
- :mod:`~api.pad.routes_directors`: the director's right (:mod:`~api.pad.directors`):
  hand it over, revoke it, ``/events/<id>/direct?key=...`` (a director's link) and
  ``/events/<id>/restore`` (the director token);
- :mod:`~api.pad.routes_find`: ``GET /games`` (every game, newest first, a page
  at a time, ``?player=`` one player's) and the roster the name fields suggest.

The ``forms_*`` modules read the forms into domain inputs (the start form, a
hand, its declared play; who plays a hand is the core's
:mod:`scorekeeper.seating`), the ``views_*`` modules, :mod:`~api.pad.declared`
and :mod:`~api.pad.replay` shape results for the templates (``templates/pad/``),
:mod:`~api.pad.labels` holds the words and card labels (with the language's rank
letters, :mod:`~api.pad.card_letters`), :mod:`~api.pad.script_words` the scripts' words
(the page's ``#pad-words`` catalog), :mod:`~api.pad.web` the cookies and CSRF and
:mod:`~api.pad.rights` the edit rights.
:mod:`~api.pad.shell` serves the service worker and the web app manifest from
the site's root (the pad offline and on the home screen).
"""

# the views register on bp as their modules are imported
from . import (  # noqa: F401
    routes_directors,
    routes_events,
    routes_find,
    routes_game,
    routes_hand_detail,
    routes_hands,
    routes_phones,
    routes_roster,
    routes_round,
    routes_seasons,
    routes_tally,
    routes_tools,
)
from .blueprint import bp

__all__ = ["bp"]
