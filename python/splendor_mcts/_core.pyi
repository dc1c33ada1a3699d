# Generated from the built splendor_mcts._core by `python tools/gen_stubs.py` (pybind11-stubgen); do not edit.
"""
splendor_mcts C++ core: rules engines, playouts and search
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.typing
import typing
__all__: list[str] = ['ANALYSIS_SHARE', 'Analysis', 'CHANCE', 'DEFAULT_BATCH_SIZE', 'DUEL_NUM_DISTINCT_ACTIONS', 'DUEL_OBSERVATION_SIZE', 'DuelRules', 'DuelSearcher', 'DuelState', 'EVALUATORS', 'InvalidInput', 'MAX_ANALYSIS_MOVES', 'MAX_BATCH_SIZE', 'MoveInfo', 'PositionError', 'RootInfo', 'SEARCH_NODE_BYTES', 'SPLENDOR_NUM_DISTINCT_ACTIONS', 'SPLENDOR_OBSERVATION_SIZE', 'SearchParams', 'SplendorRules', 'SplendorSearcher', 'SplendorState', 'TERMINAL', 'TURN_SEPARATOR', 'TurnInfo', 'duel_card_from_text', 'duel_cards', 'duel_random_playouts', 'duel_royals', 'evaluate', 'forced_win', 'greedy_agent_action', 'has_sampled_cards', 'input_feature_sets', 'input_features', 'network_forward', 'network_info', 'network_kernels', 'perft', 'perft_divide', 'random_agent_action', 'read_position', 'release_sampled_card', 'splendor_card_from_text', 'splendor_cards', 'splendor_noble_from_text', 'splendor_nobles', 'splendor_random_playouts', 'splendor_self_check', 'threat_after']
class InvalidInput(ValueError):
    pass
class SplendorRules:
    """
    Engine-side rules of a Splendor variant (built by SplendorConfig).
    """
    __hash__: typing.ClassVar[None] = None
    def __eq__(self, other: SplendorRules) -> bool:
        ...
    def __init__(self, players: typing.SupportsInt | typing.SupportsIndex, points_to_win: typing.SupportsInt | typing.SupportsIndex, take_fewer_distinct: typing.Any, gem_tokens: typing.SupportsInt | typing.SupportsIndex, gold_tokens: typing.SupportsInt | typing.SupportsIndex, nobles: typing.SupportsInt | typing.SupportsIndex, token_limit: typing.SupportsInt | typing.SupportsIndex, reserve_limit: typing.SupportsInt | typing.SupportsIndex, take_two_min: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def gem_tokens(self) -> int:
        ...
    @property
    def gold_tokens(self) -> int:
        ...
    @property
    def nobles(self) -> int:
        ...
    @property
    def players(self) -> int:
        ...
    @property
    def points_to_win(self) -> int:
        ...
    @property
    def reserve_limit(self) -> int:
        ...
    @property
    def take_fewer_distinct(self) -> typing.Any:
        ...
    @property
    def take_two_min(self) -> int:
        ...
    @property
    def token_limit(self) -> int:
        ...
class SplendorState:
    """
    A splendor position: a value (clone() copies it) with OpenSpiel's State methods; Game.new_initial_state makes one.
    """
    @staticmethod
    def from_json(config: SplendorRules, text: str) -> SplendorState:
        """
        The state to_json wrote (docs/position-format.md); ValueError naming the problem otherwise.
        """
    @staticmethod
    def from_observation(config: SplendorRules, text: str, seed: typing.SupportsInt | typing.SupportsIndex) -> SplendorState:
        """
        A full state consistent with an observation_json view, its unknown cards drawn with `seed`.
        """
    @staticmethod
    def initial(config: SplendorRules, seed: typing.SupportsInt | typing.SupportsIndex, explicit_chance: bool) -> SplendorState:
        """
        The deal of `seed`; with `explicit_chance` every card reveal is a chance node.
        """
    def __copy__(self) -> SplendorState:
        ...
    def __deepcopy__(self, memo: dict) -> SplendorState:
        ...
    def __eq__(self, other: SplendorState) -> bool:
        ...
    def __hash__(self) -> int:
        ...
    def __repr__(self) -> str:
        ...
    def action_label(self, action: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        The notation and the card the move names, if any: 'buy 2.1 (green 1pt W2U3K2)' (a Splendor noble by its requirement: 'noble 6 (U4G4)').
        """
    def action_to_string(self, action: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        The action's notation (docs/actions.md, docs/actions-duel.md).
        """
    def apply_action(self, action: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Apply a legal action; ValueError (state unchanged) otherwise.
        """
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """
        (action, probability) pairs at a chance node; empty elsewhere.
        """
    def clone(self) -> SplendorState:
        """
        An independent copy.
        """
    def current_player(self) -> int:
        """
        Seat to move, or CHANCE (-1) / TERMINAL (-4).
        """
    def dealt_outcome(self) -> int:
        """
        At a chance node: the outcome this state's own seeded deal produces.
        """
    def determinize(self, observer: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Resample in place everything `observer` cannot see (deck order, others' blind reserves).
        """
    def evaluate(self, player: typing.SupportsInt | typing.SupportsIndex) -> float:
        """
        Heuristic win chance in [0, 1] of `player` (the rollout cut-off value).
        """
    def hash(self) -> int:
        """
        64-bit Zobrist hash of the position (deck order excluded).
        """
    def heuristic_action(self, seed: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        The rollout policy's move (buys what scores, takes what visible cards need).
        """
    def is_chance_node(self) -> bool:
        """
        Whether the next action is a chance outcome (a card reveal).
        """
    def is_legal(self, action: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Whether `action` is legal here.
        """
    def is_terminal(self) -> bool:
        """
        Whether the game is over.
        """
    def legal_actions(self) -> list[int]:
        """
        Legal action ids in ascending order (chance outcomes at chance nodes).
        """
    def legal_actions_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        numpy bool array of length num_distinct_actions.
        """
    def num_players(self) -> int:
        """
        Number of seats.
        """
    def observation_json(self, player: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        What `player` knows, as JSON (no deck order, no others' blind reserves).
        """
    def observation_tensor(self, player: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float32]:
        """
        numpy float32 vector of what `player` sees.
        """
    def returns(self) -> list[float]:
        """
        Per seat: win 1, loss 0, tied winners share 1; zeros before the end.
        """
    def set_explicit_chance(self, on: bool) -> None:
        """
        Turn explicit chance on or off.
        """
    def split_turns(self, actions: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> list[tuple[int, list[int]]]:
        """
        `actions` played from here, cut into whole turns: [(seat, actions)], a turn being one seat's decisions until another seat is to move or the game ends; a chance outcome stays in the turn it happens in. Stops at the end of the game or at an action that is not legal.
        """
    def string_to_action(self, text: str) -> int:
        """
        The action a notation names, legal here or not (why_illegal says why not); ValueError if it cannot be read.
        """
    def to_json(self) -> str:
        """
        The full state as JSON (deck order included).
        """
    def why_illegal(self, action: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        Why `action` is not legal here, in the player's terms ('needs 2 more red (you have ...)'); '' if legal.
        """
    @property
    def explicit_chance(self) -> bool:
        """
        Whether card reveals are chance nodes (else drawn from the deal at once).
        """
class DuelRules:
    """
    Engine-side rules of a Splendor Duel variant (built by DuelConfig).
    """
    __hash__: typing.ClassVar[None] = None
    def __eq__(self, other: DuelRules) -> bool:
        ...
    def __init__(self, points_to_win: typing.SupportsInt | typing.SupportsIndex, crowns_to_win: typing.SupportsInt | typing.SupportsIndex, colour_points_to_win: typing.SupportsInt | typing.SupportsIndex, privileges: typing.SupportsInt | typing.SupportsIndex, first_player: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def colour_points_to_win(self) -> int:
        ...
    @property
    def crowns_to_win(self) -> int:
        ...
    @property
    def first_player(self) -> int:
        ...
    @property
    def points_to_win(self) -> int:
        ...
    @property
    def privileges(self) -> int:
        ...
class DuelState:
    """
    A duel position: a value (clone() copies it) with OpenSpiel's State methods; Game.new_initial_state makes one.
    """
    @staticmethod
    def from_json(config: DuelRules, text: str) -> DuelState:
        """
        The state to_json wrote (docs/position-format.md); ValueError naming the problem otherwise.
        """
    @staticmethod
    def from_observation(config: DuelRules, text: str, seed: typing.SupportsInt | typing.SupportsIndex) -> DuelState:
        """
        A full state consistent with an observation_json view, its unknown cards drawn with `seed`.
        """
    @staticmethod
    def initial(config: DuelRules, seed: typing.SupportsInt | typing.SupportsIndex, explicit_chance: bool) -> DuelState:
        """
        The deal of `seed`; with `explicit_chance` every card reveal is a chance node.
        """
    def __copy__(self) -> DuelState:
        ...
    def __deepcopy__(self, memo: dict) -> DuelState:
        ...
    def __eq__(self, other: DuelState) -> bool:
        ...
    def __hash__(self) -> int:
        ...
    def __repr__(self) -> str:
        ...
    def action_label(self, action: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        The notation and the card the move names, if any: 'buy 2.1 (green 1pt W2U3K2)' (a Splendor noble by its requirement: 'noble 6 (U4G4)').
        """
    def action_to_string(self, action: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        The action's notation (docs/actions.md, docs/actions-duel.md).
        """
    def apply_action(self, action: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Apply a legal action; ValueError (state unchanged) otherwise.
        """
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """
        (action, probability) pairs at a chance node; empty elsewhere.
        """
    def clone(self) -> DuelState:
        """
        An independent copy.
        """
    def current_player(self) -> int:
        """
        Seat to move, or CHANCE (-1) / TERMINAL (-4).
        """
    def dealt_outcome(self) -> int:
        """
        At a chance node: the outcome this state's own seeded deal produces.
        """
    def determinize(self, observer: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex) -> None:
        """
        Resample in place everything `observer` cannot see (deck order, others' blind reserves).
        """
    def evaluate(self, player: typing.SupportsInt | typing.SupportsIndex) -> float:
        """
        Heuristic win chance in [0, 1] of `player` (the rollout cut-off value).
        """
    def hash(self) -> int:
        """
        64-bit Zobrist hash of the position (deck order excluded).
        """
    def heuristic_action(self, seed: typing.SupportsInt | typing.SupportsIndex) -> int:
        """
        The rollout policy's move (buys what scores, takes what visible cards need).
        """
    def is_chance_node(self) -> bool:
        """
        Whether the next action is a chance outcome (a card reveal).
        """
    def is_legal(self, action: typing.SupportsInt | typing.SupportsIndex) -> bool:
        """
        Whether `action` is legal here.
        """
    def is_terminal(self) -> bool:
        """
        Whether the game is over.
        """
    def legal_actions(self) -> list[int]:
        """
        Legal action ids in ascending order (chance outcomes at chance nodes).
        """
    def legal_actions_mask(self) -> numpy.typing.NDArray[numpy.bool]:
        """
        numpy bool array of length num_distinct_actions.
        """
    def num_players(self) -> int:
        """
        Number of seats.
        """
    def observation_json(self, player: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        What `player` knows, as JSON (no deck order, no others' blind reserves).
        """
    def observation_tensor(self, player: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float32]:
        """
        numpy float32 vector of what `player` sees.
        """
    def returns(self) -> list[float]:
        """
        Per seat: win 1, loss 0, tied winners share 1; zeros before the end.
        """
    def set_explicit_chance(self, on: bool) -> None:
        """
        Turn explicit chance on or off.
        """
    def split_turns(self, actions: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> list[tuple[int, list[int]]]:
        """
        `actions` played from here, cut into whole turns: [(seat, actions)], a turn being one seat's decisions until another seat is to move or the game ends; a chance outcome stays in the turn it happens in. Stops at the end of the game or at an action that is not legal.
        """
    def string_to_action(self, text: str) -> int:
        """
        The action a notation names, legal here or not (why_illegal says why not); ValueError if it cannot be read.
        """
    def to_json(self) -> str:
        """
        The full state as JSON (deck order included).
        """
    def why_illegal(self, action: typing.SupportsInt | typing.SupportsIndex) -> str:
        """
        Why `action` is not legal here, in the player's terms ('needs 2 more red (you have ...)'); '' if legal.
        """
    @property
    def explicit_chance(self) -> bool:
        """
        Whether card reveals are chance nodes (else drawn from the deal at once).
        """
class SearchParams:
    """
    Search settings; validate() raises ValueError naming the field.
    """
    perfect_information: bool
    reuse_tree: bool
    def __init__(self) -> None:
        ...
    def problem(self) -> typing.Any:
        """
        The first bad setting as (field, message), or None; validate() raises the message.
        """
    def validate(self) -> None:
        ...
    @property
    def analysis_moves(self) -> int:
        """
        Analysis mode: the k root moves first in the best-move rule's order each get at least ANALYSIS_SHARE of the root's visits, and moves with that share rank by their lower bound; 0 (the default) is off, the search for play. validate() checks 0..MAX_ANALYSIS_MOVES.
        """
    @analysis_moves.setter
    def analysis_moves(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def evaluator(self) -> str:
        """
        How a new leaf is valued: one of EVALUATORS (random or heuristic rollouts, or evaluate). validate() checks the name.
        """
    @evaluator.setter
    def evaluator(self, arg0: str) -> None:
        ...
    @property
    def exploration(self) -> float:
        ...
    @exploration.setter
    def exploration(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def iterations(self) -> int:
        ...
    @iterations.setter
    def iterations(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def memory_limit(self) -> int:
        ...
    @memory_limit.setter
    def memory_limit(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def network(self) -> str:
        """
        A policy-value network's .smnet file (docs/network-format.md): its value values the leaves and its policy gives PUCT priors; empty: none. validate() reads and checks the file.
        """
    @network.setter
    def network(self, arg0: str) -> None:
        ...
    @property
    def parallelism(self) -> str:
        """
        How threads share the work: 'root' (a tree each) or 'tree' (one shared tree).
        """
    @parallelism.setter
    def parallelism(self, arg1: str) -> None:
        ...
    @property
    def policy_cache(self) -> bool:
        """
        With a network: a node's later expansions reuse the policy its first one computed (docs/search.md, "Networks"); False: the policy runs at every expansion.
        """
    @policy_cache.setter
    def policy_cache(self, arg0: bool) -> None:
        ...
    @property
    def probe(self) -> bool:
        """
        The solver's root probe, a proof of a win within two turns before the iterations (docs/search.md, "Proven results"); runs only with `solver`. False (the default): the search for play; the doors whose answer a person reads turn it on.
        """
    @probe.setter
    def probe(self, arg0: bool) -> None:
        ...
    @property
    def puct(self) -> float:
        """
        PUCT's c with a network: Q + c * prior * sqrt(avail) / (1 + visits).
        """
    @puct.setter
    def puct(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def rollout(self) -> str:
        """
        The evaluator under its former name (the rollout policy): the same setting as `evaluator`.
        """
    @rollout.setter
    def rollout(self, arg1: str) -> None:
        ...
    @property
    def rollout_cutoff(self) -> int:
        ...
    @rollout_cutoff.setter
    def rollout_cutoff(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def seed(self) -> int:
        ...
    @seed.setter
    def seed(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def solver(self) -> bool:
        """
        Prove results (docs/search.md, "Proven results"); False: the search as before the solver.
        """
    @solver.setter
    def solver(self, arg0: bool) -> None:
        ...
    @property
    def threads(self) -> int:
        ...
    @threads.setter
    def threads(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def time_limit(self) -> float:
        ...
    @time_limit.setter
    def time_limit(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
    @property
    def value_mix(self) -> float:
        """
        The leaf value: value_mix * network + (1 - value_mix) * evaluator (1: the network only).
        """
    @value_mix.setter
    def value_mix(self, arg0: typing.SupportsFloat | typing.SupportsIndex) -> None:
        ...
class MoveInfo:
    """
    Statistics of one root move. `win_rate` is the mean return (win 1, loss 0, shared wins split) of the player to move; `lcb` and `ucb` the bounds of its 95% Wilson interval; `pv` the principal variation as move texts starting with this move (`pv_actions` as ids). Texts are made when read.
    """
    def __repr__(self) -> str:
        ...
    def to_dict(self) -> dict:
        """
        The protocol's moveInfo (docs/analysis-protocol.md).
        """
    @property
    def action(self) -> int:
        ...
    @property
    def avail(self) -> int:
        """
        How often the move was legal in a sampled descent (its UCB availability count).
        """
    @property
    def label(self) -> str:
        """
        The notation and the card the move names, e.g. 'buy 2.1 (green 1pt W2U3K2)'.
        """
    @property
    def lcb(self) -> float:
        """
        Lower bound of win_rate's 95% interval (Wilson score); the best-move rule reads it.
        """
    @property
    def prior(self) -> typing.Any:
        """
        The network's policy for this move at the root (docs/search.md, "Networks"); None without a network.
        """
    @property
    def proof(self) -> typing.Any:
        """
        "win" or "loss" when the search proved this move's result for the player to move whatever the hidden cards (docs/search.md), else None.
        """
    @property
    def proof_turns(self) -> int:
        """
        Proven: the turns of play until the game ends (1: this turn); else 0.
        """
    @property
    def pv(self) -> list[str]:
        ...
    @property
    def pv_actions(self) -> list[int]:
        ...
    @property
    def pv_turns(self) -> list:
        """
        The principal variation by turns: [{'seat', 'turn' (1: this one), 'moves'}].
        """
    @property
    def text(self) -> str:
        """
        The move's notation, e.g. 'buy 2.1'.
        """
    @property
    def ucb(self) -> float:
        """
        Upper bound of win_rate's 95% interval (Wilson score).
        """
    @property
    def visits(self) -> int:
        ...
    @property
    def win_rate(self) -> float:
        ...
class TurnInfo:
    """
    Statistics of one whole turn of the player to move (its decisions until another seat moves or the game ends): those of the turn's last decision, so `visits` counts the iterations that played the whole turn. `text` joins the moves' notations with ', ' (each part reads back with string_to_action); `complete` is False while the search has not yet expanded the rest of the turn. Texts are made when read.
    """
    def __repr__(self) -> str:
        ...
    def to_dict(self) -> dict:
        """
        The protocol's turnInfo (docs/analysis-protocol.md).
        """
    @property
    def actions(self) -> list[int]:
        ...
    @property
    def complete(self) -> bool:
        ...
    @property
    def label(self) -> str:
        """
        The turn with the cards its moves name, e.g. 'buy 2.1 (green 1pt W2U3K2), noble 1'.
        """
    @property
    def lcb(self) -> float:
        ...
    @property
    def moves(self) -> list[str]:
        """
        The turn's moves as notations.
        """
    @property
    def proof(self) -> typing.Any:
        """
        "win" or "loss" proven for the player to move after the whole turn, else None.
        """
    @property
    def proof_turns(self) -> int:
        ...
    @property
    def pv(self) -> list[str]:
        """
        The turn's moves, then the most visited line after it.
        """
    @property
    def pv_actions(self) -> list[int]:
        ...
    @property
    def pv_turns(self) -> list:
        """
        The principal variation by turns: [{'seat', 'turn' (1: this one), 'moves'}].
        """
    @property
    def text(self) -> str:
        """
        The turn's notation, e.g. 'take WUK, return R'.
        """
    @property
    def ucb(self) -> float:
        """
        Upper bound of the 95% interval of win_rate.
        """
    @property
    def visits(self) -> int:
        ...
    @property
    def win_rate(self) -> float:
        ...
class RootInfo:
    """
    The root: seat to move, visits (reused ones included), mean return per seat over this search's iterations, speed and tree size.
    """
    def to_dict(self) -> dict:
        """
        The protocol's rootInfo (docs/analysis-protocol.md).
        """
    @property
    def bytes(self) -> int:
        ...
    @property
    def interrupted(self) -> bool:
        ...
    @property
    def iterations(self) -> int:
        ...
    @property
    def iterations_per_second(self) -> float:
        ...
    @property
    def max_depth(self) -> int:
        ...
    @property
    def memory_full(self) -> bool:
        ...
    @property
    def nodes(self) -> int:
        ...
    @property
    def player(self) -> int:
        ...
    @property
    def probe_nodes(self) -> int:
        """
        Positions the solver's root probe visited (docs/search.md, "Proven results").
        """
    @property
    def probe_seconds(self) -> float:
        """
        Seconds of `seconds` the solver's root probe took (0 if it did not run).
        """
    @property
    def reused_visits(self) -> int:
        ...
    @property
    def seconds(self) -> float:
        ...
    @property
    def visits(self) -> int:
        ...
    @property
    def win_rates(self) -> list[float]:
        ...
class Analysis:
    """
    Result of a search: the move to play and the statistics of the root moves in the best-move rule's order (docs/search.md, "Best move"; the first is best_action), at most top_k.
    """
    def __repr__(self) -> str:
        ...
    def to_dict(self) -> dict:
        """
        KataGo-style: {'rootInfo': {...}, 'moveInfos': [...], 'turnInfos': [...] (with turns), 'bestAction', 'bestWinrate', 'proof', 'proofTurns', 'bestMove', 'params'} (docs/analysis-protocol.md).
        """
    def to_json(self) -> str:
        """
        to_dict() as a JSON string.
        """
    @property
    def best_action(self) -> int:
        ...
    @property
    def best_label(self) -> str:
        ...
    @property
    def best_text(self) -> str:
        ...
    @property
    def best_win_rate(self) -> float:
        """
        The value of the best play found for the player to move, the one a person is told: the proven result (1 or 0), else the first whole turn's win rate (with turns), else the best move's; not the root's mean (root.win_rates), which averages every move searched (docs/analysis-protocol.md, bestWinrate).
        """
    @property
    def moves(self) -> list:
        ...
    @property
    def params(self) -> SearchParams:
        """
        A copy of the settings searched with.
        """
    @property
    def proof(self) -> typing.Any:
        """
        The root's proven result for the player to move ("win", "loss") or None.
        """
    @property
    def proof_turns(self) -> int:
        ...
    @property
    def root(self) -> RootInfo:
        ...
    @property
    def turns(self) -> typing.Any:
        """
        The whole turns of the player to move (at most top_k, in the moves' order), or None when the search was not asked for them (turns=False).
        """
class SplendorSearcher:
    """
    ISMCTS over one game; keeps its trees for reuse between calls.
    """
    def __init__(self, params: SearchParams) -> None:
        ...
    def reset(self) -> None:
        """
        Forget the trees: the next search starts fresh.
        """
    def search(self, state: SplendorState, progress: typing.Any = None, progress_interval: typing.SupportsFloat | typing.SupportsIndex = 0.5, top_k: typing.SupportsInt | typing.SupportsIndex | None = None, turns: bool = False, evaluate_with: typing.Any = None, batch_size: typing.SupportsInt | typing.SupportsIndex = 16) -> Analysis:
        """
        Search from `state` (GIL released); an Analysis of the root and its `top_k` first moves in the best-move rule's order (None: all), and with `turns` its whole turns too. `progress(partial_analysis)` is called every `progress_interval` seconds; returning True stops the search. `evaluate_with(observations, legal, players)` values the leaves, up to `batch_size` per call (docs/search.md, "Python evaluators").
        """
class DuelSearcher:
    """
    ISMCTS over one game; keeps its trees for reuse between calls.
    """
    def __init__(self, params: SearchParams) -> None:
        ...
    def reset(self) -> None:
        """
        Forget the trees: the next search starts fresh.
        """
    def search(self, state: DuelState, progress: typing.Any = None, progress_interval: typing.SupportsFloat | typing.SupportsIndex = 0.5, top_k: typing.SupportsInt | typing.SupportsIndex | None = None, turns: bool = False, evaluate_with: typing.Any = None, batch_size: typing.SupportsInt | typing.SupportsIndex = 16) -> Analysis:
        """
        Search from `state` (GIL released); an Analysis of the root and its `top_k` first moves in the best-move rule's order (None: all), and with `turns` its whole turns too. `progress(partial_analysis)` is called every `progress_interval` seconds; returning True stops the search. `evaluate_with(observations, legal, players)` values the leaves, up to `batch_size` per call (docs/search.md, "Python evaluators").
        """
class PositionError(ValueError):
    """
    A position that cannot be read. ``problems`` holds one {"path", "message"} dict per
        problem (path "" when the text is not JSON, "(root)" for the whole document); str()
        has one line per problem, "path: message" (a line break quoted from the input escaped,
        as core::Problem::text does).
    """
    def __init__(self, problems):
        ...
def duel_card_from_text(text: str) -> int:
    """
    Card id of a readable Duel description such as "red 2pt 1cr W2U2G2P1"; ValueError otherwise.
    """
def duel_cards() -> list:
    """
    The Duel cards (data/splendor_duel/cards.csv), one dict each: id, level, bonus, bonus_count, points, crowns, abilities, cost, text.
    """
def duel_random_playouts(config: DuelRules, n_games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex) -> tuple[numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.int32]]:
    """
    (returns[n_games, players], lengths[n_games]) of uniformly random complete games, game i dealt from seed and i only (GIL released).
    """
def duel_royals() -> list:
    """
    The royal cards (data/splendor_duel/royals.csv), one dict each: id, points, abilities.
    """
@typing.overload
def evaluate(state: SplendorState, player: typing.SupportsInt | typing.SupportsIndex) -> float:
    """
    Heuristic win chance of `player` in [0, 1] (the rollout cut-off value).
    """
@typing.overload
def evaluate(state: DuelState, player: typing.SupportsInt | typing.SupportsIndex) -> float:
    """
    Heuristic win chance of `player` in [0, 1] (the rollout cut-off value).
    """
@typing.overload
def forced_win(state: SplendorState, turns: typing.SupportsInt | typing.SupportsIndex, max_nodes: typing.SupportsInt | typing.SupportsIndex, move: typing.SupportsInt | typing.SupportsIndex | None = None) -> typing.Any:
    """
    The exhaustive check (core/forced_win.hpp; the search's root probe runs it, bench/forced_wins.py measures against it): whether the seat to move wins within its next `turns` turns whatever the others do and whatever is revealed, deciding on what it sees (core/forced_win.hpp); with `move`, playing that move first. None when max_nodes positions did not decide it. Only where the seat sees every card the others hold.
    """
@typing.overload
def forced_win(state: DuelState, turns: typing.SupportsInt | typing.SupportsIndex, max_nodes: typing.SupportsInt | typing.SupportsIndex, move: typing.SupportsInt | typing.SupportsIndex | None = None) -> typing.Any:
    """
    The exhaustive check (core/forced_win.hpp; the search's root probe runs it, bench/forced_wins.py measures against it): whether the seat to move wins within its next `turns` turns whatever the others do and whatever is revealed, deciding on what it sees (core/forced_win.hpp); with `move`, playing that move first. None when max_nodes positions did not decide it. Only where the seat sees every card the others hold.
    """
@typing.overload
def greedy_agent_action(state: SplendorState, seed: typing.SupportsInt | typing.SupportsIndex, step: typing.SupportsInt | typing.SupportsIndex) -> int:
    ...
@typing.overload
def greedy_agent_action(state: DuelState, seed: typing.SupportsInt | typing.SupportsIndex, step: typing.SupportsInt | typing.SupportsIndex) -> int:
    ...
@typing.overload
def has_sampled_cards(state: SplendorState) -> bool:
    """
    Whether some of `state`'s bought cards are known only as the table shows them (drawn from the unseen cards).
    """
@typing.overload
def has_sampled_cards(state: DuelState) -> bool:
    """
    Whether some of `state`'s bought cards are known only as the table shows them (drawn from the unseen cards).
    """
def input_feature_sets() -> list:
    """
    The input features a network may read beside the observation (docs/network-format.md, 'features').
    """
def input_features(name: str, observations: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], players: typing.Any, seats: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float32]:
    """
    The input features `name` for observations [batch, observation_size] of games of `players` seats (an int or [batch]), for `seats` seats (the most the network plays): [batch, seats * per_seat], zeros past each row's player count (docs/network-format.md, 'features').
    """
def network_forward(path: str, observations: typing.Annotated[numpy.typing.ArrayLike, numpy.float32], kernel: str = 'best', players: typing.Any = None) -> tuple[numpy.typing.NDArray[numpy.float32], numpy.typing.NDArray[numpy.float32]]:
    """
    The C++ forward pass of a .smnet network: (policy logits [batch, num_actions], value logits [batch, value_size]) for observations [batch, observation_size] (docs/network-format.md). kernel: 'best' (what the search uses on this CPU), 'portable' or 'avx2' (ValueError if this CPU lacks it). players: each observation's player count (an int or [batch]; needed for a network with input features that plays more than one count).
    """
def network_info(path: str) -> dict:
    """
    The header of a .smnet file as the C++ reader sees it; ValueError naming any problem.
    """
def network_kernels() -> list[str]:
    """
    The forward-pass kernels this CPU runs: 'portable', then 'avx2' if it has AVX2 and FMA (the search uses the last).
    """
@typing.overload
def perft(state: SplendorState, depth: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    Number of leaf decisions depth plies below state.
    """
@typing.overload
def perft(state: DuelState, depth: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    Number of leaf decisions depth plies below state.
    """
@typing.overload
def perft_divide(state: SplendorState, depth: typing.SupportsInt | typing.SupportsIndex) -> list[tuple[str, int]]:
    """
    (move text, perft count depth - 1 plies below it) per root move, in legal_actions order.
    """
@typing.overload
def perft_divide(state: DuelState, depth: typing.SupportsInt | typing.SupportsIndex) -> list[tuple[str, int]]:
    """
    (move text, perft count depth - 1 plies below it) per root move, in legal_actions order.
    """
@typing.overload
def random_agent_action(state: SplendorState, seed: typing.SupportsInt | typing.SupportsIndex, step: typing.SupportsInt | typing.SupportsIndex) -> int:
    ...
@typing.overload
def random_agent_action(state: DuelState, seed: typing.SupportsInt | typing.SupportsIndex, step: typing.SupportsInt | typing.SupportsIndex) -> int:
    ...
def read_position(text: str, seed: typing.SupportsInt | typing.SupportsIndex = 0, full: bool = False, readers: dict = {}) -> tuple:
    """
    (game name, variant dict, state, observer or None) from a position's JSON text (docs/position-format.md): the game and variant come from the position itself. A view's unknown cards are drawn with `seed`; `full` requires a full state (every card placed). `readers` maps the name of a game bound in another module to its read_position(text, seed, full). Raises PositionError.
    """
@typing.overload
def release_sampled_card(state: SplendorState, card_id: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex, keep_out: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex] = []) -> bool:
    """
    A card seen on the table (a typed reveal) that `state` had drawn for a bought-card summary of a position: the summaries are drawn again without it (nor any card id of `keep_out`) and it goes back to its deck. False if it was not such a card or no other draw fits the summaries (nothing changes then).
    """
@typing.overload
def release_sampled_card(state: DuelState, card_id: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex, keep_out: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex] = []) -> bool:
    """
    A card seen on the table (a typed reveal) that `state` had drawn for a bought-card summary of a position: the summaries are drawn again without it (nor any card id of `keep_out`) and it goes back to its deck. False if it was not such a card or no other draw fits the summaries (nothing changes then).
    """
def splendor_card_from_text(text: str) -> int:
    """
    Card id of a readable description such as "green 1pt W2U1"; ValueError otherwise.
    """
def splendor_cards() -> list:
    """
    The development cards (data/splendor/cards.csv), one dict each: id, level, bonus, points, cost, text.
    """
def splendor_noble_from_text(text: str) -> int:
    """
    Noble id of "noble 4", "#4", "4" or a requirement as printed ("3pt W4U4", "W4U4"); ValueError otherwise.
    """
def splendor_nobles() -> list:
    """
    The nobles (data/splendor/nobles.csv), one dict each: id, points, requirement.
    """
def splendor_random_playouts(config: SplendorRules, n_games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex) -> tuple[numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.int32]]:
    """
    (returns[n_games, players], lengths[n_games]) of uniformly random complete games, game i dealt from seed and i only (GIL released).
    """
def splendor_self_check(config: SplendorRules, n_games: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex) -> dict:
    """
    Plays random games checking every invariant after every action (see self_check.hpp).
    """
@typing.overload
def threat_after(state: SplendorState, turn: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], max_nodes: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
    """
    The threat check (core/threats.hpp; docs/hints.md, "Threats"): after the seat to move plays `turn` (its whole turn's decisions), does the seat that moves next win in its next turn whatever the turn reveals, on what the seat to move can see? A dict: threat (True, False, or None when max_nodes positions did not decide it, `turn` is not one whole turn from here, or no reveal lets it be played), seat (the threatening seat, -1 if none), moves (its first decisions, action ids, that win after every reveal; may be empty with threat True), labels (each move's label where the card it names is the same after every reveal, else its notation), texts (their notations), nodes.
    """
@typing.overload
def threat_after(state: DuelState, turn: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], max_nodes: typing.SupportsInt | typing.SupportsIndex) -> typing.Any:
    """
    The threat check (core/threats.hpp; docs/hints.md, "Threats"): after the seat to move plays `turn` (its whole turn's decisions), does the seat that moves next win in its next turn whatever the turn reveals, on what the seat to move can see? A dict: threat (True, False, or None when max_nodes positions did not decide it, `turn` is not one whole turn from here, or no reveal lets it be played), seat (the threatening seat, -1 if none), moves (its first decisions, action ids, that win after every reveal; may be empty with threat True), labels (each move's label where the card it names is the same after every reveal, else its notation), texts (their notations), nodes.
    """
ANALYSIS_SHARE: float = 0.05
CHANCE: int = -1
DEFAULT_BATCH_SIZE: int = 16
DUEL_NUM_DISTINCT_ACTIONS: int = 684
DUEL_OBSERVATION_SIZE: int = 1486
EVALUATORS: dict = {'random': 'uniformly random moves to the end (or rollout_cutoff plies, then evaluate)', 'heuristic': 'heuristic_action moves to the end (or rollout_cutoff plies, then evaluate)', 'evaluate': 'State::evaluate at the new leaf, no rollout'}
MAX_ANALYSIS_MOVES: int = 10
MAX_BATCH_SIZE: int = 4096
SEARCH_NODE_BYTES: int = 24
SPLENDOR_NUM_DISTINCT_ACTIONS: int = 177
SPLENDOR_OBSERVATION_SIZE: int = 474
TERMINAL: int = -4
TURN_SEPARATOR: str = ', '
