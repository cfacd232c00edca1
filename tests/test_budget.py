"""The memory budget every cache of a worker shares (wordsvc.core.budget): eviction across caches, threads, bounds."""

from __future__ import annotations

import random
import threading
from dataclasses import replace

import pytest

from wordsvc.core.budget import GENERATIONS, BudgetedCache, Doorkeeper, MemoryBudget
from wordsvc.core.cards import Deck
from wordsvc.core.solver.candidates import MemoryCandidates
from wordsvc.core.solver.solver import Solver, prefix_scope


def slack(budget: MemoryBudget) -> int:
    """How far a budget may be passed between two checks: one check's worth of writes and an entry."""
    return budget.limit // 64 + 1_000


def test_a_budget_keeps_the_caches_together_under_its_limit():
    budget = MemoryBudget(100_000)
    small, large = budget.cache("small", 50), budget.cache("large", 500)
    for i in range(10_000):
        small.put(i, i)
        large.put(i, -i)
        if i % 10 == 0:
            assert budget.used() <= budget.limit + slack(budget)
    assert 0 < len(small) < 10_000 and 0 < len(large) < 10_000
    assert budget.evicted > 0


def test_eviction_takes_the_least_recently_used_entries_whichever_cache_holds_them():
    budget = MemoryBudget(200_000)
    hot, cold, stream = budget.cache("hot", 100), budget.cache("cold", 100), budget.cache("stream", 100)
    for i in range(300):
        hot.put(i, i)
        cold.put(i, i)
    for i in range(20_000):  # many new entries flow through one cache while another's are in use
        stream.put(i, i)
        assert hot.get(i % 300) == i % 300
    assert all(hot.get(i) == i for i in range(300))  # in use: kept
    assert len(cold) == 0  # unused since: gone, though another cache did the writing
    assert len(stream) < 2_000


def test_a_hit_in_an_older_generation_brings_the_entry_forward():
    budget = MemoryBudget(80_000, generations=4)
    cache = budget.cache("words", 100)
    cache.put("kept", 1)
    for i in range(5_000):
        cache.put(i, i)
        if i % 100 == 0:
            assert cache.get("kept") == 1
    assert "kept" in cache and 0 not in cache


def test_the_recent_view_answers_what_was_just_put_and_misses_what_aged():
    budget = MemoryBudget(64_000, generations=4)
    cache = budget.cache("prefixes", 100)
    cache.put("a", ("b", ()))
    assert cache.recent["a"] == ("b", ())
    start = budget.generation
    i = 0
    while budget.generation == start:
        cache.put(i, i)
        i += 1
    assert "a" not in cache.recent and cache.get("a") == ("b", ())  # aged out of the view, not of the cache
    assert cache.recent["a"] == ("b", ())  # and brought forward


def test_an_unused_entry_goes_once_a_whole_budget_was_written_even_under_the_limit():
    budget = MemoryBudget(1_000_000)
    cache, churn = budget.cache("once", 100), budget.cache("churn", 100)
    cache.put("once", 1)
    for i in range(5_000):  # 0.5 MB written, 50 kB held
        churn.put(i % 500, i)
    assert "once" in cache
    for i in range(10_000):  # 1.5 MB written
        churn.put(i % 500, i)
    assert "once" not in cache
    assert len(churn._chain) <= GENERATIONS + 2  # no cache collects dicts without end


def test_a_cache_without_a_shared_budget_is_bounded_by_its_own_entries():
    cache: BudgetedCache[int, int] = BudgetedCache("alone", 100, max_entries=1_000)
    for i in range(20_000):
        cache.put(i, i)
    assert 800 <= len(cache) <= 1_100
    with pytest.raises(ValueError):
        BudgetedCache("unbounded", 100)


def test_a_cache_attached_to_a_shared_budget_moves_with_what_it_holds():
    shared = MemoryBudget(1 << 20)
    cache: BudgetedCache[int, int] = BudgetedCache("plans", 1_000, max_entries=10)
    for i in range(5):
        cache.put(i, i)
    cache.attach(shared)
    assert shared.sizes() == {"plans": (5, 5_000)} and cache.budget is shared
    assert [cache.get(i) for i in range(5)] == [0, 1, 2, 3, 4]


def test_sizes_add_up_the_caches_of_one_name():
    budget = MemoryBudget(1 << 20)
    first, second, other = budget.cache("solver.allowed", 80), budget.cache("solver.allowed", 80), budget.cache("deck.plans", 1_100)
    first.put("eat", True)
    second.put("tea", True)
    second.put("zzz", False)
    other.put((3, ()), "plan")
    assert budget.sizes() == {"deck.plans": (1, 1_100), "solver.allowed": (3, 240)}
    assert budget.used() == 1_340


def test_shrinking_a_budget_evicts_at_once():
    budget = MemoryBudget(1 << 20)
    cache = budget.cache("words", 100)
    for i in range(5_000):
        cache.put(i, i)
    budget.resize(100_000)
    assert budget.used() <= 100_000


def test_threads_sharing_a_budget_get_right_answers_and_stay_within_it():
    budget = MemoryBudget(200_000)
    caches = [budget.cache(f"c{n}", 50 + 50 * n) for n in range(4)]
    errors: list[BaseException] = []

    def work(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(6_000):
                cache = rng.choice(caches)
                key = rng.randrange(3_000)
                found = cache.get(key)
                if found is None:
                    cache.put(key, key * 7)
                elif found != key * 7:
                    raise AssertionError(f"{cache.name}[{key}] = {found}")
                if rng.random() < 0.3:
                    cache.recent.get(key)
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert budget.used() <= budget.limit + 8 * slack(budget)
    budget.settle()
    assert budget.used() <= budget.limit


def test_a_cache_stays_bounded_under_a_long_random_workload():
    budget = MemoryBudget(500_000)
    cache, neighbour = budget.cache("words", 90), budget.cache("plans", 1_100)
    rng = random.Random(3)
    most = 0
    for step in range(30_000):
        key = int(rng.paretovariate(1.2) * 10) if rng.random() < 0.8 else rng.randrange(10**9)  # a few hot keys, a long tail
        if cache.get(key) is None:
            cache.put(key, step)
        if step % 10 == 0:
            neighbour.put(rng.randrange(200), step)
        most = max(most, budget.used())
    assert most <= budget.limit + slack(budget)
    assert cache.get(10) is not None  # the hottest key survived it all


# ---- the caches that join the budget


def test_a_deck_counts_its_laying_plans_against_the_budget_it_shares():
    deck = Deck.from_mapping({"q": (1, 15), "u": (2, 4), "i": (3, 2), "z": (1, 14), "qu": (1, 9), "in": (1, 7)})
    budget = MemoryBudget(1 << 20)
    deck.share_budget(budget)
    assert ("qu", "in") in deck.spellings("quin")
    entries, size = budget.sizes()["deck.plans"]
    assert entries >= 1 and size == entries * 1_100


def test_solvers_under_a_tiny_budget_play_as_well_as_with_room_to_spare(standard, lexicon):
    source = MemoryCandidates.from_lexicon(lexicon)
    tight = MemoryBudget(3_000, generations=2)
    shared = tight.cache("solver.prefixes", 320)
    cramped = [Solver(standard, lexicon, source, budget=tight, prefixes=shared) for _ in range(3)]
    roomy = Solver(standard, lexicon, source)
    rng = random.Random(5)
    cards = [face for face, card in standard.deck.cards.items() for _ in range(card.count)]
    for _ in range(40):
        hand = rng.sample(cards, rng.randint(3, 11))
        drawn = len(hand) > standard.max_hand
        expected = roomy.solve(hand, discard=drawn).best
        for solver in cramped:
            assert solver.solve(hand, discard=drawn).best == expected
        assert tight.used() <= tight.limit + slack(tight)
    assert tight.evicted > 0


def test_rulesets_of_one_source_share_their_prefix_answers_unless_house_words_differ(rulesets, standard, lexicon):
    source = MemoryCandidates.from_lexicon(lexicon)
    assert prefix_scope(standard, lexicon, source) == prefix_scope(rulesets.get("no-floor"), lexicon, source)
    assert prefix_scope(standard, lexicon, source) != prefix_scope(replace(standard, house_allow=frozenset({"zzyzx"})), lexicon, source)
    assert prefix_scope(standard, lexicon, source) != prefix_scope(standard, lexicon, MemoryCandidates.from_lexicon(lexicon))


def test_the_doorkeeper_admits_a_key_on_its_second_sighting():
    door = Doorkeeper(window=1_000, slots=1 << 16)
    keys = range(1, 500)  # small ints hash to themselves: marks at k and 0, never both set by others
    assert not any(door.admit(key) for key in keys)
    assert all(door.admit(key) for key in keys)


def test_the_doorkeeper_forgets_sightings_after_its_window():
    door = Doorkeeper(window=10, slots=1 << 16)
    door.admit(5)
    for key in range(100, 110):  # ten new keys: the window is over
        door.admit(key)
    assert not door.admit(5)  # forgotten: seen once again
    assert door.admit(5)


def test_the_doorkeeper_starts_afresh_after_its_last_epoch():
    door = Doorkeeper(window=1, slots=1 << 8)  # a key's marks: its hash's low byte and the next
    assert not door.admit(7)  # marks 7 and 0 with epoch 1, then the window is over
    for _ in range(254):  # 254 more windows (marks 20 and 3): epochs 2 to 255, then back to 1
        door.admit(20 + 256 * 3)
    assert not door.admit(7)  # epoch 1 again, but the table was cleared: 7's old marks are gone


@pytest.mark.parametrize("slots, window", [(0, 1), (3, 1), (1 << 8, 0)])
def test_a_doorkeeper_needs_a_power_of_two_of_slots_and_a_window(slots, window):
    with pytest.raises(ValueError):
        Doorkeeper(window=window, slots=slots)


def test_the_governor_shrinks_the_caches_when_private_memory_passes_the_target_and_lets_them_grow_back():
    from wordsvc.core.budget import MemoryBudget
    from wordsvc.service.memory import MIB, MIN_CACHE_BYTES, MemoryGovernor

    budget = MemoryBudget(100 * MIB)
    readings = iter([300 * MIB, 280 * MIB, 150 * MIB, 150 * MIB, 150 * MIB, None])
    governor = MemoryGovernor(budget, 256 * MIB, every=2, measure=lambda: next(readings))
    assert [governor.tick() for _ in range(2)] == [False, True] and budget.limit == 56 * MIB  # 44 MiB over: 44 MiB less
    governor.tick(), governor.tick()
    assert budget.limit == 32 * MIB  # still 24 MiB over
    governor.tick(), governor.tick()
    assert budget.limit == 32 * MIB + (int(256 * MIB * 0.9) - 150 * MIB) // 2  # well under: half the room back
    for _ in range(4):
        governor.tick()
    assert budget.limit == 100 * MIB  # never past where it started
    governor.check()  # no reading (no /proc): nothing changes
    assert budget.limit == 100 * MIB and governor.shrunk == 2
    MemoryGovernor(budget, 1, every=1, measure=lambda: 1000 * MIB).tick()
    assert budget.limit == MIN_CACHE_BYTES  # never below the floor
