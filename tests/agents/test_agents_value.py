"""The ``value`` player: its network in numpy against torch, its decisions in every phase, its noise, bad input, and a
tiny run of its training command."""

import json

import numpy as np
import pytest

import physics
from agents.learned.value_agent import ValueSearchAgent, ValueSearchConfig, noisy_rows
from agents.learned.value_net import EaseValue, ValueNet
from agents.protocol import TableView
from agents.registry import AgentSpecError, make_agent
from agents.shots import playout_kernels as PK
from agents.shots.playout import N_FEATURES
from agents.training.value import Args, FitConfig, Positions, features, fit, generate, main, self_play, train
from nineball_env import actions
from nineball_env.game import Game, GameConfig
from nineball_env.noise import make_noise, perturb
from nineball_env.rules import RackState

from extrakit import require_extra

SMALL = ValueSearchConfig(candidates=24, safeties=12, top_pots=3, top_safeties=1, samples=3, refine=1, placements=1,
                          break_samples=2, weights="ease")


def _random_net(seed: int, hidden=(32, 16)) -> ValueNet:
    rng = np.random.default_rng(seed)
    sizes = (N_FEATURES, *hidden, 1)
    return ValueNet([rng.normal(0, 0.3, (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:])],
                    [rng.normal(0, 0.1, b).astype(np.float32) for b in sizes[1:]])


def _torch_values(net: ValueNet, x: np.ndarray) -> np.ndarray:
    torch = require_extra("train", "torch")
    layers = []
    for i, (w, b) in enumerate(zip(net.weights, net.biases)):
        lin = torch.nn.Linear(*w.shape)
        with torch.no_grad():
            lin.weight.copy_(torch.as_tensor(w.T))
            lin.bias.copy_(torch.as_tensor(b))
        layers += [lin] + ([torch.nn.ReLU()] if i < len(net.weights) - 1 else [])
    with torch.no_grad():
        return torch.sigmoid(torch.nn.Sequential(*layers)(torch.as_tensor(x, dtype=torch.float32)))[:, 0].numpy()


@pytest.mark.parametrize("net", [_random_net(0), _random_net(1, (8,)), ValueNet.shipped()],
                         ids=["random", "one-layer", "shipped"])
def test_numpy_inference_matches_torch(net):
    x = np.random.default_rng(2).random((300, N_FEATURES)).astype(np.float32)
    np.testing.assert_allclose(net(x), _torch_values(net, x), rtol=0, atol=2e-6)


def test_fit_exports_what_torch_computes():
    """The training's own export: the fitted torch module and the ``ValueNet`` it returns agree."""
    require_extra("train", "torch")

    pos = self_play((3, 0, 2, "ease", SMALL))
    net = fit(pos, FitConfig(hidden=(16,), epochs=2, holdout=0.0), 0)
    x = features(pos)
    np.testing.assert_allclose(net(x), _torch_values(net, x), atol=2e-6)
    assert isinstance(pos, Positions) and len(pos) == len(x) and set(np.unique(pos.z)) <= {0.0, 1.0}


def test_value_net_round_trip_and_bad_files(tmp_path):
    net = _random_net(3)
    net.meta["break"] = [{"dx": 0.0, "dy": 0.0, "V": 9.0, "b": 0.0, "dphi": 0.0, "value": 0.6}]
    back = ValueNet.load(net.save(tmp_path / "v.npz"))
    x = np.random.default_rng(0).random((5, N_FEATURES))
    np.testing.assert_array_equal(back(x), net(x))
    assert back.meta == json.loads(json.dumps(net.meta))
    with pytest.raises(FileNotFoundError, match="no value network"):
        ValueNet.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a value network"):
        ValueNet.load(tmp_path / "junk.npz")
    with pytest.raises(ValueError, match="features"):
        net(np.zeros((2, N_FEATURES + 1)))
    with pytest.raises(ValueError, match="inputs"):
        ValueNet([np.zeros((3, 1), np.float32)], [np.zeros(1, np.float32)])
    with pytest.raises(ValueError, match="break 0"):
        ValueNet(net.weights, net.biases, {"break": [{"dx": 0.0}]})


def test_noisy_rows_are_the_env_noise_draw_by_draw():
    noise, params = make_noise("icga"), physics.DEFAULT_PARAMS
    rows = np.array([[3.0, 45.0, 0.0, 0.2, -0.4], [0.02, -170.0, 10.0, 0.6, 0.6]])
    normals = np.random.default_rng(4).standard_normal((6, 5))
    got = noisy_rows(rows, normals, noise.sigmas, float(params.R))

    class Fixed:  # hands perturb the draws we gave noisy_rows
        def __init__(self, e):
            self.e = e

        def standard_normal(self, size):
            return self.e[:size]

    for i, row in enumerate(rows):
        for k in range(len(normals)):
            s = perturb(physics.Shot(*row), noise, Fixed(normals[k]), params)
            np.testing.assert_allclose(got[i * len(normals) + k], [s.V0, s.phi, s.theta, s.a, s.b], atol=1e-12)


def _view(positions, *, phase="normal", in_hand="none"):
    rack = RackState(breaker=0, shooter=0, on_table=frozenset(b for b in positions if b), phase=phase,
                     ball_in_hand=in_hand)
    return TableView(physics.place_balls(positions), rack, 0, noise=make_noise("icga"))


@pytest.mark.parametrize("phase, in_hand, intents", [
    ("normal", "none", {"pot", "safety", "jump", "jump-pot"}),
    ("normal", "anywhere", {"pot", "safety", "jump", "jump-pot"}),
    ("push-out-allowed", "none", {"pot", "safety", "jump", "jump-pot", "push-out"}),
    ("push-out-choice", "none", {"choice"}),
])
def test_decides_in_every_phase_and_is_reproducible(phase, in_hand, intents):
    view = _view({0: (0.6, 0.8), 1: (0.5, 1.6), 4: (0.2, 1.9), 9: (0.9, 2.0)}, phase=phase, in_hand=in_hand)
    a = ValueSearchAgent(SMALL, seed=5)
    first = a.decide(view)
    assert first.shape == (actions.N_ACTION,) and np.all(np.abs(first) <= 1.0) and a.intent in intents
    if in_hand == "anywhere":
        assert a.last is not None and a.last.spot is not None
    b = ValueSearchAgent(SMALL, seed=5)
    np.testing.assert_array_equal(b.decide(view), first)


def test_breaks_with_the_networks_break_or_the_book():
    game = Game(GameConfig(), np.random.default_rng(0), 0, make_noise("icga"))
    view = TableView.from_game(game, make_noise("icga"))
    booked = ValueSearchAgent(SMALL, seed=0)
    booked.decide(view)
    assert booked.intent == "break" and booked.last.spot is not None
    net = _random_net(5)
    net.meta["break"] = [{"dx": 0.1, "dy": 0.2, "V": 8.5, "b": -0.25, "dphi": 0.3, "value": 0.7}]
    learned = ValueSearchAgent(SMALL, seed=0, value=net)
    action = learned.decide(view)
    shot = actions.action_to_shot(action)
    assert shot.V0 == pytest.approx(8.5, abs=1e-5) and shot.b == pytest.approx(-0.25, abs=1e-6)
    spot = actions.action_to_placement(action, "kitchen")
    t, R = game.config.table, game.config.params.R
    assert spot == pytest.approx((t.width / 2 + 0.1, t.head_string_y - R - 0.2), abs=1e-5)


def test_plays_a_rack_against_itself():
    agent = ValueSearchAgent(SMALL, seed=2)
    game = Game(GameConfig(), np.random.default_rng(6), 0, make_noise("icga"))
    decisions = 0
    while not game.over and decisions < 60:
        player = game.to_move
        game.play(player, agent.decide(TableView.from_game(game, make_noise("icga"))), np.random.default_rng(decisions))
        decisions += 1
    assert game.over


def test_config_and_spec_errors():
    with pytest.raises(ValueError, match="samples"):
        ValueSearchConfig(samples=0)
    with pytest.raises(ValueError, match="push_below"):
        ValueSearchConfig(push_below=1.5)
    with pytest.raises(AgentSpecError, match="top_safeties"):
        make_agent("value:top_safeties=-1")
    with pytest.raises(AgentSpecError, match="no value network"):
        make_agent("value:weights=/nonexistent/v.npz")
    assert make_agent("value:weights=ease").name == "value:weights=ease"
    assert isinstance(make_agent("value").value, ValueNet)


def test_ease_value_is_searchs_leaf_value():
    f = np.zeros((2, N_FEATURES))
    f[0, PK.F_EASE], f[1, PK.F_IN_HAND], f[1, PK.F_RATED0] = 0.8, 1.0, 0.4
    np.testing.assert_allclose(EaseValue()(f), [0.9, 0.7])


def test_tiny_training_run_writes_a_network_that_plays(tmp_path):
    require_extra("train", "torch")
    out = tmp_path / "v.npz"
    assert main(["--generations", "2", "--racks", "2", "--epochs", "1", "--hidden", "8", "--seed", "3",
                 "--search", "candidates=16,safeties=8,top_pots=2,top_safeties=1,samples=2,refine=1,placements=1",
                 "--break-rounds", "1,2:4", "--quick-break-rounds", "1,2:2", "--work", str(tmp_path / "run"),
                 "--out", str(out), "--progress", "false"]) == 0
    net = ValueNet.load(out)
    assert net.meta["generation"] == 1 and len(net.meta["break"]) == 3
    report = json.loads((tmp_path / "run" / "report.json").read_text())
    assert [r["generation"] for r in report] == [0, 1]
    agent = make_agent(f"value:weights={out},candidates=16,samples=2")
    view = _view({0: (0.6, 0.8), 1: (0.5, 1.6), 9: (0.9, 2.0)})
    assert agent.act(np.zeros(1), view).shape == (actions.N_ACTION,)
    # an interrupted run resumes: both generations are kept, nothing is played again
    again = train(Args(generations=2, racks=2, epochs=1, hidden="8", seed=3, work=str(tmp_path / "run"),
                       break_rounds="1,2:4", quick_break_rounds="1,2:2", progress=False))
    assert again.name == "value1.npz"
    with pytest.raises(SystemExit):
        main(["--break-rounds", "4:2"])  # the first round keeps every candidate
    with pytest.raises(ValueError, match="hidden"):
        Args(hidden="x")


def test_self_play_data_do_not_depend_on_jobs():
    """Each chunk is seeded by its index: two worker processes write the positions one process writes."""
    config = ValueSearchConfig(candidates=16, safeties=8, top_pots=2, top_safeties=1, samples=2, refine=1,
                               placements=1, break_samples=2, weights="ease")
    one = generate(2, 11, "ease", config, jobs=1, chunk=1, progress=False)
    two = generate(2, 11, "ease", config, jobs=2, chunk=1, progress=False)
    assert len(one) > 0
    for name in ("balls", "racks", "q", "z", "rack_id"):
        np.testing.assert_array_equal(getattr(one, name), getattr(two, name), err_msg=name)
