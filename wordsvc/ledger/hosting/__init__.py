"""Hosted games in the ledger (docs/play.md): a table the server deals and referees, its seats, its moves in order.

A hosted table is a table of an event. Its setup and secret server seed are
in ``hosted``, its seats (people, the server's bots, outside programs) in
``hosted_seats``, and every move the engine (:mod:`wordsvc.core.play`)
accepted in ``moves``, one row a move number. Each move is an audit entry
whose payload is the move as a spectator sees it (faces, never a hidden
card); each finished round is stored as the table's round exactly as a
referee's would be, with the hash of its moves. One concept a module: the
setup (``setup``), creating a table and taking its seats (``tables``), the
game's state rebuilt from its moves (``states``), and a move played
(``plays``).
"""
