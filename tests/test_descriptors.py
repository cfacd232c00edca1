"""The connection caps fitted to the descriptor limit: connections alone can never run a worker out of descriptors."""

from __future__ import annotations

import resource

from wordsvc.server.descriptors import RESERVED_DESCRIPTORS, fit_descriptors, raise_soft_limit
from wordsvc.server.options import ServerOptions


def test_under_systemds_default_soft_limit_the_caps_leave_the_worker_its_own_descriptors():
    fitted = fit_descriptors(ServerOptions(), 1024)
    assert fitted.max_connections == 1024 - RESERVED_DESCRIPTORS
    assert fitted.max_client_connections == fitted.max_connections // 2


def test_a_limit_with_room_for_every_connection_changes_nothing():
    options = ServerOptions(max_connections=1000, max_client_connections=500)
    assert fit_descriptors(options, 65536) is options
    assert fit_descriptors(options, resource.RLIM_INFINITY) is options


def test_a_tiny_limit_still_leaves_one_connection():
    assert fit_descriptors(ServerOptions(), 64).max_connections == 1


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
