"""The golden networks of tests/data/network/ (made by tools/gen_network_golden.py with torch):
the numpy forward pass gives torch's outputs for the same weights and inputs. Needs no torch."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import splendor_mcts as sm
from splendor_mcts.search.families import FAMILIES
from splendor_mcts.learning.weights import masked_softmax, read_network, value_mask

GOLDEN = Path(__file__).resolve().parent / "data" / "network"


@pytest.mark.parametrize("family_name", list(FAMILIES))
def test_numpy_forward_equals_torch(family_name):
    network = read_network(GOLDEN / f"{family_name}.smnet")
    with np.load(GOLDEN / f"{family_name}.npz") as golden:
        data = {key: golden[key] for key in golden.files}
    assert json.loads(str(data["meta"]))["family"] == family_name == network.family
    policy_logits, value_logits = network.forward(data["observation"])
    assert np.allclose(policy_logits, data["policy_logits"], rtol=1e-5, atol=1e-5)
    assert np.allclose(value_logits, data["value_logits"], rtol=1e-5, atol=1e-5)
    assert np.allclose(masked_softmax(policy_logits, data["legal"]), data["policy"], atol=1e-6)
    assert np.allclose(masked_softmax(value_logits, value_mask(data["players"])), data["value"], atol=1e-6)


@pytest.mark.parametrize("family_name", list(FAMILIES))
def test_golden_inputs_are_real_positions_of_the_family(family_name):
    fam = FAMILIES[family_name]
    game = sm.load_game(fam.game)
    with np.load(GOLDEN / f"{family_name}.npz") as golden:
        observation, legal, players = golden["observation"], golden["legal"], golden["players"]
    assert observation.shape[1] == game.observation_tensor_size() and legal.shape[1] == game.num_distinct_actions()
    assert set(players.tolist()) == set(fam.players) and legal.any(axis=1).all()
    assert len({row.tobytes() for row in observation}) == len(observation)  # distinct positions
