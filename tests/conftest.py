"""Shared fixtures: a real server on 127.0.0.1 (port 0) with a real SQLite store."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import dataclasses
import os
import re
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest
import pytest_asyncio

from cardtui import i18n, native
from cardtui.engine.core import Match
from cardtui.fair import Chain
from cardtui.server.actor.table import Table
from cardtui.server.app import Running, start
from cardtui.server.base import wire
from cardtui.server.processes import analysis_pool
from cardtui.v1 import common_pb2, lobby_pb2, lobby_pb2_grpc, table_pb2, table_pb2_grpc
from tests.arrangements import ARRANGEMENTS, Arrangement
from tests.browsers import Browsers
from tests.games import highcard
from tests.postgres import Cluster
from tests.waiting import PATIENCE, eventually

REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()
"""Each test's reports by phase, for a fixture that checks more once the test itself passed."""


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    report: pytest.TestReport = yield
    item.stash.setdefault(REPORTS, {})[report.when] = report
    return report


def passed(node: pytest.Item) -> bool:
    """The test's own body passed (read in a fixture's teardown)."""
    report = node.stash.get(REPORTS, {}).get("call")
    return report is not None and report.passed


BROWSER_FIXTURES = frozenset({"chromium", "browsers"})
"""Fixtures that start a real browser: a test using one is marked ``browser``."""

POSTGRESQL_FIXTURES = frozenset({"postgres", "pg_url", "hosts"})
"""Fixtures that need the real PostgreSQL cluster: a test using one is marked ``postgresql``."""

def _parse_shared() -> None:
    """Each stylesheet a test process's apps read is parsed once for them all. Textual keeps what it parsed per
    ``Stylesheet``, and every app makes one, and a new one each time a screen or widget class brings CSS it had not
    seen (``Stylesheet.reparse``): some 600 tests start an app, and each parsed every widget's CSS again, a few
    times over. What is shared is keyed by all a parse reads (the CSS, where it came from, its priority and scope,
    the theme's variables), and Textual keeps reusing its parsed rules already (its own cache returns the same
    ones); a sheet with an error still raises at each app (``Stylesheet.parse`` checks the rules it gets)."""
    from textual.css.model import RuleSet
    from textual.css.stylesheet import Stylesheet

    parsed: dict[tuple[object, ...], list[RuleSet]] = {}
    own = Stylesheet._parse_rules

    def shared(self: Stylesheet, css: str, read_from: tuple[str, str], is_default_rules: bool = False,
               tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        key = (css, read_from, is_default_rules, tie_breaker, scope, tuple(self._variables.items()))
        if key not in parsed:
            parsed[key] = own(self, css, read_from, is_default_rules, tie_breaker, scope)
        return parsed[key]

    Stylesheet._parse_rules = shared  # type: ignore[method-assign]


_parse_shared()

os.environ[analysis_pool.YIELDS_ENV] = "0"
"""The analyses of every server the tests start (in this process or forked) run at the usual priority: in the
idle class they would wait for ever on a machine whose cores another process keeps busy, where the suite must
pass too. ``test_analysis_pool`` checks the idle class itself."""

SLOW: frozenset[str] = frozenset({
    # the engine's long random runs and reference comparisons: many games or hands each
    "tests/engine/test_analysis.py::"
    "test_a_decisions_analysis_does_not_change_when_the_unseen_cards_are_dealt_otherwise",
    "tests/engine/test_advice_facts.py::test_every_fact_a_reason_states_is_the_one_the_history_recounts",
    "tests/engine/test_advice_facts.py::test_what_a_seat_has_seen_is_what_the_history_shows_it",
    "tests/engine/test_analysis.py::test_each_answer_holds_when_the_whole_hand_is_played_out",
    "tests/engine/test_fairness.py::test_a_thousand_fair_hands_of_every_game_verify",
    "tests/engine/test_fairness.py::test_every_card_is_equally_likely_in_every_position",
    "tests/engine/test_melds.py::test_answers_kept_across_calls_are_those_of_a_fresh_search",
    "tests/engine/test_melds.py::test_arrange_leaves_as_few_cards_loose_as_any_split",
    "tests/engine/test_melds.py::test_completing_cards_agree_with_reference",
    "tests/engine/test_melds.py::test_completing_cards_on_many_hands",
    "tests/engine/test_melds.py::test_filling_cards_are_those_that_meld_every_card",
    "tests/engine/test_melds.py::test_ten_cards_agree_with_reference",
    "tests/engine/test_rummy.py::test_histories_account_for_every_card",
    "tests/engine/test_rummy_windows.py::test_cacheta_hands_whose_windows_the_clock_closed_replay",
    "tests/engine/test_rummy_windows.py::test_pif_paf_hands_whose_windows_the_clock_closed_replay",
    "tests/engine/test_truco_argentino.py::test_bots_play_whole_matches_against_random_play",
    "tests/engine/test_truco_argentino.py::test_random_matches_keep_the_invariants",
    "tests/engine/test_truco_argentino.py::test_random_matches_with_flor_replay_exactly",
    "tests/engine/test_truco_contract.py::test_random_play_keeps_the_contract_with_options",
    "tests/engine/test_truco_histories.py::test_deal_and_actions_account_for_every_card",
    "tests/engine/test_truco_paulista.py::test_random_matches_keep_the_invariants",
    # whole files: each test starts servers, workers or browser guests' processes and plays hands
    "tests/server/test_analysis.py",
    "tests/server/test_fuzz.py",
    "tests/server/test_store_private.py",
    "tests/test_analyze_cli.py",
    "tests/test_matrix.py",
    "tests/test_web_guard.py",
    # servers killed and restarted, whole matches played, pools of processes, packages built
    "tests/server/test_analysis_pool.py::test_a_hand_asked_for_alone_is_shared_among_the_free_workers",
    "tests/server/test_audit.py::test_no_audience_receives_a_card_before_it_may_see_it",
    "tests/server/test_churn.py::test_people_come_and_go_and_the_server_restarts",
    "tests/server/test_fair.py::test_a_table_deals_from_the_committed_seed_and_the_players_cuts",
    "tests/server/test_fair.py::test_kill_9_mid_hand_restores_the_same_fair_deal_and_the_chain",
    "tests/server/test_lookalikes.py::test_every_confusable_substitution_of_an_owned_name_is_refused",
    "tests/server/test_rematch.py::test_a_leaver_leaves_the_seat_to_a_bot_and_the_one_staying_starts_it",
    "tests/server/test_restart.py::test_kill_9_mid_hand_and_every_table_comes_back",
    "tests/server/test_thinking.py::test_a_client_that_hosts_the_server_starts_its_bot_workers",
    "tests/server/test_thinking.py::test_the_bots_workers_end_with_a_server_killed_outright",
    "tests/server/test_tournaments.py::test_a_whole_tournament_of_bots_whose_standings_the_histories_give_again",
    "tests/server/test_tournaments.py::test_kill_9_mid_round_resumes_with_nothing_lost_or_scored_twice",
    "tests/server/test_trust.py::test_a_screen_that_saw_all_it_could_see_is_never_stale",
    "tests/server/test_trust.py::test_letting_claim_windows_pass_is_never_a_missed_turn",
    "tests/server/test_unsaid.py::test_a_kill_9_at_any_kind_of_event_unsays_nothing",
    "tests/server/test_windows.py::test_a_window_looks_the_same_whether_or_not_anyone_can_claim",
    "tests/server/test_windows.py::test_with_a_person_at_the_table_every_window_lasts_claim_ms",
    "tests/test_cli.py::test_history_export_writes_the_store_as_json_lines",
    "tests/test_cli.py::test_serve_refuses_a_bad_number_of_bot_workers_with_a_sentence",
    "tests/test_cli.py::test_sim_plays_the_bots_at_the_level_asked",
    "tests/test_cli.py::test_sim_refuses_bad_input_with_a_sentence",
    "tests/test_cli.py::test_verify_tells_plain_seeds_apart_and_strict_fails_them",
    "tests/test_conformance.py::test_a_bots_decision_is_a_snapshot_another_process_can_make",
    "tests/test_conformance.py::test_random_play_keeps_the_contract",
    "tests/test_connect_password.py::test_the_password_from_a_file_or_the_environment_is_not_on_the_command_line",
    "tests/test_history_schema.py::test_every_history_sim_writes_validates",
    "tests/test_history_schema.py::test_sim_writes_what_bots_seldom_do_and_awaited",
    "tests/test_i18n.py::test_a_new_message_shows_up_as_missing",
    "tests/test_i18n.py::test_a_stale_compiled_catalog_shows_up",
    "tests/test_i18n.py::test_every_message_in_the_code_is_translated_and_compiled",
    "tests/test_layout.py::test_a_circle_between_the_packages_parts_breaks_the_contract",
    "tests/test_layout.py::test_every_bench_module_imports_on_its_own",
    "tests/test_layout.py::test_every_module_imports_on_its_own",
    "tests/test_native.py::test_a_rummy_state_with_a_knock_in_it_copies_alike_compiled_or_not",
    "tests/test_native.py::test_plain_python_plays_and_judges_the_same_rummy_hands_as_the_build_in_use",
    "tests/test_native.py::test_plain_python_plays_and_judges_the_same_truco_and_cacho_hands_as_the_build_in_use",
    "tests/test_play.py::test_quitting_play_says_nothing_more",
    "tests/test_proto_client.py::test_a_client_from_the_proto_alone_plays_a_hand_of_every_game",
    "tests/test_web.py::test_serve_web_with_tls_reaches_the_lobby_over_wss_and_grpc_tls",
    "tests/test_web_takeover.py::test_a_browser_guest_who_takes_a_seat_mid_hand_sees_it_his",
    "tests/test_web_taps.py::test_a_hand_of_each_game_by_taps_alone",
    "tests/test_web_phone.py",
    # the line mode: a whole Pif Paf hand heard at both levels, its claim windows left to close by themselves
    "tests/client/lines/test_narration.py::"
    "test_a_hand_heard_terse_says_less_than_verbose_and_the_deal_command_says_the_check",
    # the client under Pilot: whole matches, many hands checked, screens at many sizes and languages
    "tests/client/test_analysis.py::test_a_hands_summary_says_how_the_player_played_and_a_opens_it",
    "tests/client/test_analysis.py::test_a_matchs_summary_gives_the_players_accuracy_and_m_its_worst_moments",
    "tests/client/test_analysis.py::test_the_drill_draws_what_a_dishonest_server_sends_without_falling_over",
    "tests/client/test_analysis.py::test_the_replay_viewer_shows_a_finished_hands_analysis_step_by_step",
    "tests/client/test_app.py::test_create_a_table_and_play_a_hand_by_keys",
    "tests/client/test_clicks.py::test_a_cacheta_hand_by_clicks_alone",
    "tests/client/test_board_parts.py::test_a_plain_table_drawn_a_line_and_a_cell_at_a_time_shows_what_rich_draws",
    "tests/client/test_compositor.py::test_the_terminal_holds_the_screen_as_drawn_whole_after_each_message",
    "tests/client/test_dishonest_server.py::test_no_trick_of_a_dishonest_server_gets_a_tick",
    "tests/client/test_dishonest_server.py::test_the_steered_six_never_gets_a_tick",
    "tests/client/test_fairness.py::test_every_seat_and_a_spectator_find_every_honest_hand_sound",
    "tests/client/test_fairness.py::test_the_summarys_seeds_name_who_held_the_seats_at_the_deal",
    "tests/client/test_reconnect.py::test_back_within_seconds_of_the_server_and_no_action_meanwhile",
    "tests/client/test_replay.py::test_the_lobby_history_opens_a_rigged_hand_and_steps_both_ways",
    "tests/client/test_table_flow.py::test_a_seat_that_changed_hands_is_told_as_it_was_then",
    "tests/client/test_takeover.py::test_a_seat_taken_over_mid_hand_is_named_truly_on_every_screen",
    "tests/client/test_takeover.py::test_every_move_is_named_for_whoever_held_its_seat_then",
    "tests/client/test_tournaments.py::test_the_standings_at_80x24_in_three_languages",
    "tests/client/test_tournaments.py::test_the_standings_keep_following_after_one_leaves_ones_table",
    "tests/client/test_words.py::test_closing_a_table_you_created_asks_first_and_its_key_shows_on_your_table",
    # a second or more each on a quiet machine: a server, an app or a subprocess per test, or many hands
    "tests/client/test_analysis.py::test_the_drill_draws_every_games_board_as_the_seat_saw_it",
    "tests/client/test_analysis.py::test_the_drill_puts_a_flagged_decision_back_and_says_how_the_new_choice_does",
    "tests/client/test_analysis.py::test_the_replay_viewer_sums_up_a_finished_tables_match",
    "tests/client/test_board_parts.py::test_a_line_drawn_without_rich_wrapping_it_shows_what_rich_draws",
    "tests/client/test_fairness.py::"
    "test_a_seed_the_server_drops_in_time_shows_a_warning_in_the_log_the_summary_and_verify",
    "tests/client/test_fairness.py::test_an_altered_deal_or_reveal_is_flagged_in_words",
    "tests/client/test_fairness.py::test_the_client_cuts_and_marks_a_real_hand_it_played_fair",
    "tests/client/test_guest.py::test_a_hand_played_by_taps_alone",
    "tests/client/test_languages.py::test_ctrl_l_says_the_leaderboard_and_the_history_again",
    "tests/client/test_lobby.py::test_the_history_names_everyone_who_played_a_table_at_80_columns",
    "tests/client/test_players.py::test_the_card_and_the_leaderboard_show_every_column_whole_at_80_columns",
    "tests/client/test_reconnect.py::test_the_table_screen_follows_a_table_whose_worker_was_killed",
    "tests/client/test_replay.py::test_a_spectator_opens_the_last_finished_hand_never_the_one_in_play",
    "tests/client/test_replay.py::test_replay_snapshot",
    "tests/client/test_rummy.py::test_keys_keep_their_meaning_when_a_window_opens",
    "tests/client/test_rummy.py::test_the_claim_prompt_shows_only_to_a_seat_that_may_take_the_card",
    "tests/client/test_table_flow.py::test_a_password_table_asks_others_and_never_its_creator",
    "tests/client/test_table_flow.py::test_hand_and_match_summaries_with_a_countdown_and_two_choices",
    "tests/client/test_table_flow.py::"
    "test_the_create_form_is_built_from_the_options_and_says_what_is_wrong_beside_the_field",
    "tests/client/test_table_flow.py::test_the_log_wraps_at_its_width_and_rewraps_on_resize",
    "tests/client/test_table_layout.py::test_a_hand_in_play",
    "tests/client/test_table_layout.py::test_a_wide_or_short_screen_keeps_the_log_beside_the_board",
    "tests/client/test_tournaments.py::test_at_a_tournament_table_the_end_of_its_match_offers_no_next_one",
    "tests/client/test_tournaments.py::test_from_the_lobby_create_register_start_and_sit_at_ones_table",
    "tests/client/test_tournaments.py::test_in_truco_partners_name_their_team_when_they_register",
    "tests/client/test_truco.py::test_board_snapshot",
    "tests/client/test_turns_and_phrases.py::test_again_with_the_seats_swapped_after_a_friend_left",
    "tests/client/test_turns_and_phrases.py::test_the_bell_rings_once_per_turn_and_never_for_anyone_elses",
    "tests/client/test_words.py::test_in_an_outage_the_banner_says_keys_do_nothing_and_the_turn_timer_stops",
    "tests/client/test_words.py::test_the_create_form_starts_from_the_last_choices_at_that_server",
    "tests/client/test_words.py::test_the_create_forms_labels_stand_apart_from_their_values",
    "tests/engine/test_analysis.py::test_no_choice_is_shown_above_the_best",
    "tests/engine/test_bot_easy.py::test_four_cacheta_beginners_finish_their_hands",
    "tests/engine/test_cacheta.py::test_bot_games_follow_the_points_and_replay",
    "tests/engine/test_fairness.py::test_altering_any_hand_before_the_last_is_caught",
    "tests/engine/test_fairness.py::test_altering_seeds_cards_or_result_is_caught_by_the_hand_itself",
    "tests/engine/test_fairness.py::test_the_uniformity_test_catches_modulo_bias",
    "tests/engine/test_pifpaf.py::test_bot_sessions_conserve_chips_and_replay",
    "tests/engine/test_pifpaf.py::test_bots_go_out_quickly",
    "tests/engine/test_rummy_memory.py::test_views_remember_the_discards_the_takes_and_the_declarations",
    "tests/server/test_analysis_pool.py::test_a_worker_ended_mid_analysis_that_nobody_waits_for_leaves_no_error_unread",
    "tests/server/test_fair.py::test_a_seed_late_or_never_sent_does_not_stall_the_table",
    "tests/server/test_lan.py::test_a_served_table_is_found_and_gone_after_stop",
    "tests/server/test_lan.py::test_txt_tells_tls_and_follows_the_table_count",
    "tests/server/test_lookalikes.py::test_many_substitutions_at_once_and_in_any_case_are_refused",
    "tests/server/test_names.py::test_refusals_reach_the_log_at_a_bounded_rate",
    "tests/server/test_passwords.py::test_a_password_is_kept_as_a_salted_scrypt_and_still_opens_its_table",
    "tests/server/test_passwords.py::test_passwords_tried_from_one_address_are_bounded",
    "tests/server/test_played.py::test_a_finished_table_names_the_people_and_the_bots_who_played_it",
    "tests/server/test_records.py::"
    "test_a_player_who_left_keeps_the_match_and_the_hand_they_were_dealt_the_bot_nothing_more",
    "tests/server/test_rematch.py::test_everyone_staying_with_the_seats_swapped",
    "tests/server/test_rematch.py::test_when_the_time_runs_out_what_most_asked_for_starts_and_the_silent_stay",
    "tests/server/test_rematch.py::test_a_one_to_one_vote_starts_the_same_seats_and_the_log_says_why",
    "tests/server/test_replays.py::test_the_delayed_view_never_holds_the_hand_in_play",
    "tests/server/test_seat_holders.py::test_a_person_who_drops_and_never_comes_back_gets_no_match_they_did_not_play",
    "tests/server/test_seat_holders.py::test_a_seat_taken_over_mid_match_gives_the_match_to_both_who_played_it",
    "tests/server/test_seat_holders.py::"
    "test_after_a_match_a_seat_its_person_left_is_an_open_bots_seat_and_the_next_match_starts",
    "tests/server/test_server.py::test_a_player_away_past_missed_turns_is_played_by_a_bot_until_back",
    "tests/server/test_tournaments.py::test_a_person_who_drops_mid_round_is_played_by_a_bot_marked_and_scored",
    "tests/server/test_workers.py::test_a_hand_a_worker_played_is_analysed_in_the_lobbys_process_for_its_holder_alone",
    "tests/server/test_workers.py::test_a_worker_killed_mid_hand_its_tables_come_back_and_the_client_follows",
    "tests/server/test_workers.py::test_an_invite_to_a_table_a_worker_drives_names_the_room_and_opens_the_table",
    "tests/server/test_workers.py::test_each_seat_sees_its_own_cards_only_at_a_worker",
    "tests/server/test_workers.py::"
    "test_outsiders_reach_nothing_between_the_processes_and_limits_count_their_own_address",
    "tests/test_arena.py::test_every_level_plays_a_hand_of_every_game",
    "tests/test_cli.py::test_a_wheel_holds_one_package_cardtui",
    "tests/test_cli.py::test_serve_reads_a_config_file_and_flags_win",
    "tests/test_cli.py::test_sim_writes_replayable_histories_and_a_summary",
    "tests/test_cli.py::test_verify_checks_fair_sims_and_names_what_was_altered",
    "tests/test_conformance.py::test_every_action_type_of_every_game_is_on_the_wire",
    "tests/test_connect_password.py::test_a_password_on_the_command_line_is_refused_before_anything_is_sent",
    "tests/test_contract.py::test_the_import_contracts_hold",
    "tests/test_history_schema.py::test_cardtui_verify_checks_out_hands_with_keys_a_later_version_adds",
    "tests/test_history_schema.py::test_keys_a_later_version_adds_at_every_level_validate_and_replay",
    "tests/test_i18n.py::test_ctrl_l_is_remembered_by_a_persons_client_not_by_a_browser_guests",
    "tests/test_i18n.py::test_refusals_are_said_in_the_readers_language",
    "tests/test_i18n.py::test_the_browser_page_speaks_the_browsers_language",
    "tests/test_invites.py::test_cardtui_connect_with_an_invite_sits_at_its_table",
    "tests/test_invites.py::test_the_invite_on_screen_decodes_to_its_link_and_a_code_opens_the_table",
    "tests/test_invites.py::test_the_table_under_an_invite_shows_the_match_begun_while_it_was_open",
    "tests/test_layout.py::test_the_import_contracts_read_every_module_by_its_installed_name",
    "tests/test_native.py::test_plain_python_sends_the_same_cacho_bytes_as_the_build_in_use",
    "tests/test_packaging.py::test_a_wheel_holds_the_one_package_with_every_module_in_its_place",
    "tests/test_packaging.py::test_an_editable_install_builds_without_a_warning_block",
    "tests/test_proto_client.py::"
    "test_a_client_from_the_proto_and_the_docs_signs_in_with_a_key_and_plays_the_guides_hand",
    "tests/test_web.py::test_a_guest_types_a_name_and_reaches_the_lobby",
    "tests/test_web.py::test_serve_web_prints_the_page_and_stops_cleanly",
    "tests/test_web.py::test_the_page_and_its_assets_come_from_this_server_only",
    "tests/test_web_guests_memory.py::test_a_forked_guest_plays_at_a_table",
    # the slowest left in make check once the above were out (two seconds or more under load)
    "tests/client/test_fairness.py::test_a_table_without_cuts_says_so_before_anyone_sits_and_never_shows_a_tick",
    "tests/client/test_lobby.py::test_the_lobby_counts_people_bots_open_seats_and_watchers_there_now",
    "tests/client/test_replay.py::test_cardtui_replay_opens_a_sim_history_file",
    "tests/client/test_rummy.py::test_cacheta_hand_to_a_knock_by_keys",
    "tests/client/test_rummy.py::test_pifpaf_betting_and_a_discard_by_keys",
    "tests/client/test_table_flow.py::test_a_refused_port_shows_the_connection_screen_and_a_retry_reaches_the_lobby",
    "tests/client/test_table_flow.py::test_each_bot_seat_gets_its_own_level",
    "tests/client/test_table_flow.py::test_escape_asks_before_leaving_a_hand_and_the_help_escape_does_not_count",
    "tests/client/test_tournaments.py::test_registering_for_a_tournament_with_a_password_asks_it",
    "tests/client/test_truco.py::test_argentino_hand_by_keys_with_an_envido_called_and_settled",
    "tests/client/test_truco.py::test_paulista_hand_by_keys_with_a_truco_answered",
    "tests/server/test_records.py::test_ratings_after_a_scripted_match_are_what_openskill_computes",
    "tests/server/test_server.py::test_reconnect_after_seq_gets_exactly_the_missed_events_once",
    "tests/server/test_server.py::test_turn_timer_plays_the_default_action",
    "tests/server/test_trust.py::test_a_table_that_cannot_be_restored_is_set_aside_and_the_rest_start",
    # the line mode's whole hands and matches, in three languages each; the operator's servers killed and scraped
    "tests/client/lines/test_by_ear.py::test_a_whole_hand_of_each_game_by_ear",
    "tests/client/lines/test_by_ear.py::test_the_analysis_by_ear_names_the_hand_it_judged",
    "tests/client/lines/test_records.py",
    "tests/client/lines/test_rummy_by_name.py",
    "tests/client/lines/test_tournaments_by_ear.py",
    "tests/server/test_metrics.py",
    "tests/server/test_owner_litter.py",
    # the package built, checked and installed into clean venvs; the client run with no POSIX-only module
    "tests/test_packaging.py::test_the_package_could_be_published_as_it_is",
    "tests/test_friend_install.py",
    "tests/client/test_off_posix.py",
})
"""The slowest tests (node ids without their parameters; a whole file by its path), marked ``slow``:
left out of ``make check``, run by ``make test``. Chosen from the fast subset's ``--durations`` (run
with ``CARDTUI_PURE=1`` on two workers): each takes seconds where most tests take a fraction of one."""


def _needs_browser(item: pytest.Item) -> bool:
    """A test that starts Chromium: it asks for the ``chromium`` fixture, or names its module's
    ``CHROMIUM`` (the browser found on the PATH) in its own code."""
    if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    code = getattr(getattr(item, "function", None), "__code__", None)
    return code is not None and "CHROMIUM" in code.co_names


def _is_slow(item: pytest.Item) -> bool:
    name = item.nodeid.split("[", 1)[0]
    return name in SLOW or name.split("::", 1)[0] in SLOW


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by what it needs, from the fixtures it uses, so that ``make check`` can leave out
    with ``-m "not slow and not browser and not postgresql"`` what needs root to install or time to run,
    and no test file has to say it."""
    for item in items:
        if _needs_browser(item):
            item.add_marker(pytest.mark.browser)
        if POSTGRESQL_FIXTURES & set(getattr(item, "fixturenames", ())) and not item.get_closest_marker("postgresql"):
            item.add_marker(pytest.mark.postgresql)
        if _is_slow(item):
            item.add_marker(pytest.mark.slow)
    # The longest first: the workers take tests in this order, and a long one started last kept the whole
    # run waiting for it alone (a hand of Cacheta by taps, minutes on a busy machine, after everything else).
    items[:] = longest_first(items, recorded_seconds())


DURATIONS = Path(__file__).with_name("durations.txt")
"""The slowest tests' seconds in a whole ``make test``: pytest's own ``--durations`` lines as a run printed them
(``make test ARGS=--durations=60``, its list pasted here whole; a test's setup, call and teardown add up; other
lines are comments)."""

GUESSES = {"browser": 6.0, "slow": 4.0, "": 0.5}
"""Seconds taken for a test the record does not name, by its marker: a browser's, another slow test, the rest (the
record holds the slowest of a whole run, 8 s and more: the others are shorter, most of them far shorter)."""


def recorded_seconds(text: str | None = None) -> dict[str, float]:
    """Each test's seconds in the recorded run (``DURATIONS``, or ``text`` in its form), by node id without the
    ``@group`` xdist adds to a grouped test's."""
    if text is None:
        text = DURATIONS.read_text(encoding="utf-8") if DURATIONS.exists() else ""
    seconds: dict[str, float] = {}
    for line in text.splitlines():
        found = re.match(r"\s*(\d+(?:\.\d+)?)s\s+(?:setup|call|teardown)\s+(\S+)", line)
        if found:
            node = re.sub(r"@[^/:\[\]@]+$", "", found[2])
            seconds[node] = seconds.get(node, 0.0) + float(found[1])
    return seconds


def _group(item: pytest.Item) -> str:
    """The test's xdist group, named as xdist names it (its groups joined), or "" for none."""
    names = {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")}
    return "_".join(sorted(names))


def longest_first(items: list[pytest.Item], seconds: dict[str, float]) -> list[pytest.Item]:
    """The tests in the order the workers should start them: the longest unit of work first, a group (``xdist_group``:
    one worker runs all its tests, one after another) counted as the sum of its tests, each test as the record has it
    (``seconds``), or as ``GUESSES`` guesses. xdist hands each free worker the next unit in this order
    (``--dist loadgroup --no-loadscope-reorder``), so the run ends on short tests started late, not on a long one
    started after everything else; a long group started last once kept four workers idle for minutes."""
    def guess(item: pytest.Item) -> float:
        group = _group(item)
        node = item.nodeid.removesuffix(f"@{group}") if group else item.nodeid
        if node in seconds:
            return seconds[node]
        kind = "browser" if item.get_closest_marker("browser") else "slow" if item.get_closest_marker("slow") else ""
        return GUESSES[kind]

    units: dict[str, float] = {}
    for item in items:
        unit = _group(item) or item.nodeid
        units[unit] = units.get(unit, 0.0) + guess(item)
    order = {item.nodeid: n for n, item in enumerate(items)}
    return sorted(items, key=lambda item: (-units[_group(item) or item.nodeid], _group(item), order[item.nodeid]))


@pytest.fixture(scope="session")
def chromium() -> str:
    """Chromium's path, or the test is skipped saying why (``make test`` installs Debian's chromium)."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("no Chromium here (make test installs Debian's chromium)")
    return found


@pytest.fixture(scope="session")
def browsers(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browsers]:
    """This worker's browsers (``Browsers``), closed at its end."""
    kept = Browsers(chromium, tmp_path_factory.mktemp("browsers"))
    try:
        yield kept
    finally:
        kept.close()


def pytest_report_header() -> str:
    """Which engine the suite runs against: the compiled build, or plain Python and why."""
    return f"cardtui engine: {native.STATUS}"


OWN_FOLDERS = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
"""Where cardtui keeps a person's files (platformdirs reads these first): keys, choices, the language (config),
the default store (data). The suite points every one of them at folders of its own."""


def pytest_configure(config: pytest.Config) -> None:
    """The whole session, and every process it starts (servers forked, the command line run), keeps its files in
    a folder of its own, never the person's (``make test`` beside ``make play`` shares nothing with it). HOME stays:
    the tools the suite runs (pip, git) read their own settings there, and cardtui reads nothing there but through
    these folders."""
    folder = Path(tempfile.mkdtemp(prefix="cardtui-suite-"))
    atexit.register(shutil.rmtree, folder, True)
    for name in OWN_FOLDERS:
        os.environ[name] = os.environ[f"CARDTUI_SUITE_{name}"] = str(folder / name.lower())
    os.environ["CARDTUI_NATIVE_CACHE"] = str(folder / "native-cache")  # (tools.native's SHARED)


@pytest.fixture(autouse=True)
def own_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every test has config and data folders of its own (keys, the create form's last choices, a default store),
    never the user's, nor another test's."""
    for name in OWN_FOLDERS:  # (the config folder keeps the name tests have always read it by)
        monkeypatch.setenv(name, str(tmp_path / ("config" if name == "XDG_CONFIG_HOME" else name.lower())))


@pytest.fixture(autouse=True)
def in_english(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test reads English unless it asks for another language (whatever the shell's LANG),
    and a test that switches the language leaves it in English."""
    monkeypatch.setenv("CARDTUI_LANG", "en")
    yield
    i18n.use("en")


PATIENT_CUTS = 60.0
"""A cut window longer than any test waits (``start(..., cut_window=PATIENT_CUTS)``): a deal waits for
the seeds it awaits (a real client sends its own at once), or for the test to end its window
(``end_cut_window``), never for an amount of time a busy machine may overrun; a new match waits as
long for the seated people's streams to open."""


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    """One real PostgreSQL cluster for the whole run (``tests.postgres``), skipped with the reason
    where none can be started. Its tests are marked ``postgresql`` and grouped on one xdist worker."""
    try:
        cluster = Cluster.start()
    except RuntimeError as e:
        pytest.skip(f"PostgreSQL: {e}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def arrangements() -> Iterator[dict[str, Arrangement]]:
    """The arrangements this test process has started (``tests.arrangements``), each once, stopped at the end."""
    started: dict[str, Arrangement] = {}
    try:
        yield started
    finally:
        for running in started.values():
            running.stop()


def _arrangement_param(name: str) -> Any:
    """Each arrangement's tests run in one test process (``xdist_group``), which starts it once; the hosts' with
    the other PostgreSQL tests, whose process has the cluster."""
    if name == "hosts":
        return pytest.param(name, marks=[pytest.mark.postgresql, pytest.mark.xdist_group("postgresql")])
    return pytest.param(name, marks=pytest.mark.xdist_group(f"arrangement-{name}"))


@pytest.fixture(params=[_arrangement_param(name) for name in ARRANGEMENTS])
def arrangement(request: pytest.FixtureRequest, arrangements: dict[str, Arrangement],
                tmp_path_factory: pytest.TempPathFactory) -> Arrangement:
    """A room in each arrangement (one process, table workers, two hosts on PostgreSQL), shared by the tests of
    this process that ask for it: a test makes tables of its own."""
    return arrangement_named(str(request.param), request, arrangements, tmp_path_factory)


@pytest.fixture
def hosts(request: pytest.FixtureRequest, arrangements: dict[str, Arrangement],
          tmp_path_factory: pytest.TempPathFactory) -> Arrangement:
    """The two hosts on PostgreSQL alone (a test of the database itself: mark it ``postgresql``)."""
    return arrangement_named("hosts", request, arrangements, tmp_path_factory)


def arrangement_named(name: str, request: pytest.FixtureRequest, arrangements: dict[str, Arrangement],
                      tmp_path_factory: pytest.TempPathFactory) -> Arrangement:
    if name not in arrangements:
        url = request.getfixturevalue("postgres").new_database() if name == "hosts" else ""
        arrangements[name] = Arrangement.start(name, tmp_path_factory.mktemp(f"room-{name}"), url)
    return arrangements[name]


@pytest.fixture
def pg_url(postgres: Cluster) -> str:
    """A fresh database of the session's cluster."""
    return postgres.new_database()


QUICK_CUTS = 1.0
"""The ``server`` fixture's wait for seeds and new streams (``serve --cut-ms 1000``): its tests' clients cut at once
or not at all, and one that never opens the table or never cuts holds a deal this long, not a whole turn (the
default, which the matrix and ``patient_server`` keep)."""


@pytest_asyncio.fixture
async def server(tmp_path: Path) -> AsyncIterator[Running]:
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          cut_window=QUICK_CUTS)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


@pytest_asyncio.fixture
async def patient_server(tmp_path: Path) -> AsyncIterator[Running]:
    """As ``server``, but a deal waits for the seeds of the people seated with a stream open, and a new
    match for their streams, as long as any test does (``PATIENT_CUTS``): for tests whose clients
    all cut, and that must not see a deal go ahead without a seed because a busy machine was slow
    to send it."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          cut_window=PATIENT_CUTS)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


@pytest.fixture
def test_game() -> Iterator[str]:
    """The tests' own game (``tests/games/highcard``) in this process's registries, the engine's and the
    client's, while the test runs: its name. A server of another process learns it from ``CARDTUI_GAMES``
    (``tests.arrangements``)."""
    with highcard.registered():
        yield highcard.NAME


@pytest_asyncio.fixture
async def game_server(test_game: str, tmp_path: Path) -> AsyncIterator[Running]:
    """As ``patient_server``, with the tests' game registered, and its bots thinking on the event loop: the bots'
    worker processes come from a fork server this process may have started before the game was registered."""
    running = await start("127.0.0.1", 0, tmp_path / "store.db", bot_delay=0.01, next_hand_delay=0.05,
                          cut_window=PATIENT_CUTS, bot_workers=0)
    try:
        yield running
    finally:
        await running.stop(grace=0.2)


@dataclass
class Player:
    """One client: its own channel, a token, and everything its stream delivered."""

    address: str
    token: str = ""
    seat: int = -1
    messages: list[table_pb2.TableMessage] = field(default_factory=list)
    channel: grpc.aio.Channel | None = None
    task: asyncio.Task[None] | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    chain: Chain = field(default_factory=lambda: Chain.make(length=64))
    """The seat's pledged chain (docs/deal.md §3a): ``link`` gives the seed each deal takes from it."""
    cuts: bool = True
    """Cut each deal that waits for this seat's link as its commitment arrives, as the client does (a
    deal otherwise waits the table's whole cut window). False for a test that cuts, or withholds, itself."""
    cutting: set[asyncio.Task[Any]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.channel = grpc.aio.insecure_channel(self.address)
        self.lobby = lobby_pb2_grpc.LobbyStub(self.channel)
        self.table = table_pb2_grpc.TableStub(self.channel)

    async def join(self, table_id: str, name: str) -> Player:
        r = await self.lobby.JoinTable(lobby_pb2.JoinTableRequest(table_id=table_id, name=name,
                                                                  pledge=self.chain.pledge))
        self.token, self.seat = r.token, r.seat
        return self

    async def spectate(self, table_id: str, name: str = "watcher") -> Player:
        r = await self.lobby.Spectate(lobby_pb2.SpectateRequest(table_id=table_id, name=name))
        self.token, self.seat = r.token, -1
        return self

    def subscribe(self, after_seq: int = 0) -> None:
        async def read() -> None:
            stream = self.table.Subscribe(table_pb2.SubscribeRequest(token=self.token, after_seq=after_seq))
            try:
                async for msg in stream:
                    self.messages.append(msg)
                    if self.cuts:
                        self._cut(msg)
                    self.changed.set()
            finally:
                self.changed.set()  # the stream ended: whoever waits looks again

        self.task = asyncio.create_task(read())

    def _cut(self, msg: table_pb2.TableMessage) -> None:
        """This seat's link for a deal just committed that waits for it (sent off the stream's reader)."""
        if not msg.HasField("update"):
            return
        for e in msg.update.events:
            committed = e.deal_committed if e.HasField("deal_committed") else None
            if committed is None or not committed.cut_ms or all(p.seat != self.seat for p in committed.pledges):
                continue
            request = table_pb2.CutRequest(token=self.token, hand=committed.hand, seed=self.link(committed.hand))
            task = asyncio.create_task(self._send_cut(request))
            self.cutting.add(task)
            task.add_done_callback(self.cutting.discard)

    async def _send_cut(self, request: table_pb2.CutRequest) -> None:
        with contextlib.suppress(grpc.aio.AioRpcError):  # refused (the rate, or too late): the window runs out
            await self.table.Cut(request)

    async def unsubscribe(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
            self.task = None

    @property
    def events(self) -> list[table_pb2.Event]:
        return [e for m in self.messages if m.HasField("update") for e in m.update.events]

    @property
    def last_view(self) -> table_pb2.View | None:
        for m in reversed(self.messages):
            if m.HasField("update") and m.update.HasField("view"):
                return m.update.view
            if m.HasField("snapshot"):
                return m.snapshot.view
        return None

    def kinds(self) -> list[str]:
        return [kind(e) for e in self.events]

    async def wait_for(self, predicate: Any, timeout: float = PATIENCE) -> None:
        async def loop() -> None:
            while not predicate(self):
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(loop(), timeout)

    def link(self, hand: int) -> bytes:
        """This seat's seed for table deal ``hand``: the link of its chain after the one the hand's commitment
        names for it (32 zero bytes, which no chain holds, if it names none)."""
        named = None
        for e in reversed(self.events):
            if e.HasField("deal_committed") and e.deal_committed.hand == hand:
                named = {p.seat: p.follows for p in e.deal_committed.pledges}.get(self.seat)
                break
        return (self.chain.after(named) if named is not None else None) or bytes(32)

    async def act(self, action: common_pb2.Action) -> int:
        return (await self.table.Act(table_pb2.ActRequest(token=self.token, action=action))).seq

    async def close(self) -> None:
        await self.unsubscribe()
        for task in list(self.cutting):
            task.cancel()
        await asyncio.gather(*self.cutting, return_exceptions=True)
        if self.channel is not None:
            await self.channel.close()


def kind(event: table_pb2.Event) -> str:
    """What an event is: the name of its innermost body field ("acted", "showed", "hidden")."""
    name = event.WhichOneof("body") or ""
    inner = getattr(event, name) if name else None
    while inner is not None and inner.DESCRIPTOR.oneofs_by_name.get("body") is not None:
        name = inner.WhichOneof("body") or ""
        inner = getattr(inner, name)
    return name


async def started(server: Running, table_id: str) -> Table:
    """The table once its match is dealt: a new match waits, at most the cut window, for the
    seated people's streams, and these tests' people may have none open."""
    table = server.room.tables[table_id]
    await eventually(lambda: table.match is not None, f"table {table_id} dealing its match")
    return table


def end_cut_window(table: Table) -> None:
    """The deal being cut waits no longer for seeds: its window runs out now, as its time running
    out would end it (a test that gave it all the time it needed ends it when the test is ready)."""
    assert table.cut is not None, "no deal is being cut"
    table.pacer.cut(0.0, table._deal)


def next_hand_now(table: Table) -> None:
    """The pause between hands ends now, as its time running out would end it (a test that gave it
    all the time it needed to read a hand's summary ends it when it has)."""
    assert table.pacer.next_at is not None, "no next hand is waiting"
    table.pacer.next_hand(0.0, table._next_hand)


def bots_wait(table: Table, seconds: float = 60.0) -> None:
    """The table's bots take ``seconds`` over each move from now on, a move already on its way too
    (it is called off and planned again at that pace): the table stands where it is, however busy
    the machine, until a person moves."""
    table.config = dataclasses.replace(table.config, bot_delay=seconds)
    table._schedule()


async def one_person_with_bots(server: Running, **fields: Any) -> tuple[Player, Table, Match]:
    """A table of bots and ana, once its match is dealt: the test moves for everyone it holds back."""
    table_id = await create(server, **fields)
    person = await Player(f"127.0.0.1:{server.port}").join(table_id, "ana")
    table = await started(server, table_id)
    assert table.match is not None
    return person, table, table.match


def buffered(table: Table) -> list[table_pb2.Event]:
    """The events a table keeps for replays, whole: parsed from the very bytes it sends."""
    return [table_pb2.Event.FromString(wire.event_bytes(seq, body)) for seq, _, _, body in table.fanout.buffer]


def act(kind_: int, **fields: Any) -> common_pb2.Action:
    return common_pb2.Action(type=kind_, **fields)


async def create(running: Running, *, short_turns: float = 0, **fields: Any) -> str:
    """A table; its bots play the quick, predictable level unless the test names one.

    ``short_turns``: a turn timer of that many seconds, shorter than any table may ask for (5 s),
    set in the server's memory before anyone sits, so that a test of what a timer does need
    not wait for one."""
    fields.setdefault("bot_levels", ["easy"])
    async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as ch:
        created = await lobby_pb2_grpc.LobbyStub(ch).CreateTable(lobby_pb2.CreateTableRequest(**fields))
    if short_turns:
        running.room.tables[created.table.id].config.turn_seconds = short_turns
    return created.table.id
