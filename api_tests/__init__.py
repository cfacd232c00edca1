"""Black-box tests of the wordsvc HTTP API: pytest + requests, talking HTTP to a real server.

Nothing here imports ``wordsvc``; the session fixture in ``conftest.py``
starts the server the way ``make serve`` does (or uses ``WORDSVC_URL``).
"""
