"""The connection and stream caps fitted to the descriptor limit: together they never run a worker out, and neither starves the other."""

from __future__ import annotations

import resource

from wordsvc.server.descriptors import RESERVED_DESCRIPTORS, STREAM_SHARE, fit_descriptors, raise_soft_limit
from wordsvc.server.options import ServerOptions


def test_under_systemds_default_limit_connections_and_streams_share_what_the_worker_leaves():
    fitted = fit_descriptors(ServerOptions(), 1024)
    room = 1024 - RESERVED_DESCRIPTORS
    assert fitted.max_streams == int(room * STREAM_SHARE) == 448  # a venue's projector, consoles and phones, not 1
    assert fitted.max_connections == room - fitted.max_streams == 448
    assert fitted.max_client_connections == fitted.max_connections // 2
    assert fitted.max_client_streams == fitted.max_streams // 2


def test_streams_take_what_the_connections_leave_when_those_need_less_than_their_share():
    fitted = fit_descriptors(ServerOptions(), 4096)
    assert fitted.max_connections == 1000  # all they ask for
    assert fitted.max_streams == 4096 - RESERVED_DESCRIPTORS - 1000
    assert fitted.max_client_connections == ServerOptions().max_client_connections


def test_a_limit_with_room_for_every_connection_and_stream_changes_nothing():
    options = ServerOptions(max_connections=1000, max_client_connections=500)
    assert fit_descriptors(options, 1000 + 10000 + RESERVED_DESCRIPTORS) is options
    assert fit_descriptors(options, 65536) is options
    assert fit_descriptors(options, resource.RLIM_INFINITY) is options


def test_a_tiny_limit_still_leaves_one_connection_and_one_stream():
    fitted = fit_descriptors(ServerOptions(), 64)
    assert (fitted.max_connections, fitted.max_streams) == (1, 1)


def test_the_soft_limit_is_raised_to_the_hard_one():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        if hard != resource.RLIM_INFINITY and hard > 256:
            resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        raised, same_hard = raise_soft_limit()
        assert same_hard == hard
        assert raised == (hard if hard != resource.RLIM_INFINITY else raised) and raised >= min(soft, 256)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
