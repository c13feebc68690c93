"""Deal analysis (issue 11): "where was it won or lost", checked on deals worked by hand."""

from __future__ import annotations

import pytest
from engine_kit import make_record

import scorekeeper as sk
from scorekeeper.analysis import SUMMARY_KEYS, DealAnalysis, MatchAnalysis, analyse
from scorekeeper.analysis_decisions import DiscardDecision, DrawDecision
from scorekeeper.bots import simulate_match

BEN = "5c 8c Jc 3d 6d Jd 2h 4s 8h Qh"  # no meld; the 4s fits Ana's A-2-3 of spades


def passed_up_deal() -> dict:
    """A deal with a passed-up meld (the upcard 9♣), a costly discard and a missed layoff."""
    return make_record(
        ("As 2s 3s 7c 7d 7h 9d 9h Kc 4d", BEN),
        "9c",
        "Ks 5s 9s",
        actions=[
            "pass",
            "pass",
            "draw stock",
            "discard 4d",
            "draw stock",
            "discard Qh",
            "draw stock",
            "knock Ks",
        ],
        showdown={"layoffs": []},
    )


def test_a_passed_up_meld_a_costly_discard_and_a_missed_layoff():
    record = passed_up_deal()
    report = analyse(record)
    assert isinstance(report, DealAnalysis)
    assert (report.outcome, report.points) == ("knock", 51)  # D 61 - K 10
    steps = {fact["step"]: fact for fact in report.to_dict()["decisions"]}
    # step 0: Ana passes the 9c, which makes 9c 9d 9h; with it she could keep deadwood 4
    assert steps[0]["passed_up"] == {
        "card": "9c",
        "meld": ["9c", "9d", "9h"],
        "deadwood_with_it": 4,
    }
    # step 3: discarding 4d keeps 9 9 K K = 38 where Kc or Ks keeps 32
    assert (steps[3]["deadwood"], steps[3]["best_deadwood"], steps[3]["cost"]) == (38, 32, 6)
    assert steps[3]["best_discards"] == ["Kc", "Ks"]
    # step 5: Ben's Qh is one of his best discards
    assert steps[5]["cost"] == 0 and "Qh" in steps[5]["best_discards"]
    assert steps[7]["kind"] == "knock" and steps[7]["cost"] == 0
    shown = report.showdown
    assert shown is not None
    # Ana is measured against Ben's best reply (52 deadwood: 42 for her), as the pad's
    # hand review measures her, not against the 51 his mistake let her score
    assert shown.knocker.to_dict() == {
        "player": 0,
        "deadwood": 10,
        "best_deadwood": 10,
        "points": 42,
        "best_points": 42,
        "cost": 0,
    }
    # Ben could have laid off 4s and then 5s (drawn at step 4) on A-2-3 of spades: 61 - 9
    assert shown.defender.missed_layoffs == ("4s", "5s")
    assert (shown.defender.deadwood, shown.defender.best_deadwood) == (61, 52)
    assert shown.defender.cost == 9
    # each missed layoff says what laying off that card alone changes: 4s alone saves 4
    # points; 5s needs 4s first, and the two save 9
    assert [x.to_dict() for x in shown.defender.missed_layoff_worth] == [
        {
            "card": "4s",
            "meld": ["As", "2s", "3s"],
            "cards": ["4s"],
            "points": 4,
            "rearranged": False,
        },
        {
            "card": "5s",
            "meld": ["As", "2s", "3s"],
            "cards": ["4s", "5s"],
            "points": 9,
            "rearranged": False,
        },
    ]
    ana, ben = report.summary
    assert ana.to_dict() == {
        "player": "Ana",
        "deadwood_given_away": 6,
        "discards_off_best": 1,
        "missed_melds": 1,
        "missed_knocks": 0,
        "missed_gins": 0,
        "showdown_cost": 0,
    }
    assert ben.showdown_cost == 9 and ben.deadwood_given_away == 0


def test_a_missed_gin_and_a_missed_knock():
    gin = analyse(
        make_record(
            ("As 2s 3s 7c 7d 7h 9d 9h 9c Kc", BEN.replace("4s", "4h")),
            "4s",
            actions=["draw discard", "knock As"],
        )
    )
    assert isinstance(gin, DealAnalysis)
    fact = gin.decisions[0]
    assert isinstance(fact, DiscardDecision)
    assert fact.gin_available is True and (fact.deadwood, fact.cost) == (10, 10)
    assert fact.to_dict()["gin_available"] is True
    assert gin.summary[0].missed_gins == 1 and gin.outcome == "knock"

    knock = analyse(
        make_record(
            ("As 2s 3s 7c 7d 7h 9d 9h 9c 5c", "Ac 2c 3c 4d 5d 6d Jh Qh 2h 8s"),
            "Kd",
            "Kh",
            actions=["pass", "pass", "draw stock", "discard Kh", "draw discard", "knock 8s"],
        )
    )
    assert isinstance(knock, DealAnalysis)
    missed = knock.decisions[0]
    assert isinstance(missed, DiscardDecision)
    assert missed.step == 3 and missed.knock_available == 5 and missed.cost == 0
    assert "gin_available" not in missed.to_dict() and not missed.gin_available
    assert knock.summary[0].missed_knocks == 1
    assert (knock.outcome, knock.points) == ("knock", 3)


def test_a_void_deal_has_no_showdown_and_a_match_adds_up_its_deals():
    match = simulate_match(11, players=("random", "greedy"))
    report = analyse(match)
    assert isinstance(report, MatchAnalysis)
    assert len(report.deals) == len(match["deals"])
    for key in SUMMARY_KEYS:
        for seat in (0, 1):
            assert getattr(report.summary[seat], key) == sum(
                getattr(deal.summary[seat], key) for deal in report.deals
            )
    assert all((deal.showdown is None) == deal.void for deal in report.deals)
    # the greedy bot always discards its best card
    assert report.summary[1].deadwood_given_away == 0


def test_facts_are_consistent_on_simulated_deals():
    for seed in range(40):
        report = analyse(sk.simulate(seed, players=("random", "random")))
        assert isinstance(report, DealAnalysis)
        for fact in report.decisions:
            if isinstance(fact, DrawDecision):
                assert fact.passed_up.card in fact.passed_up.meld
            else:
                assert fact.cost == fact.deadwood - fact.best_deadwood >= 0


def test_a_record_that_does_not_replay_is_refused_with_its_step():
    record = make_record(
        ("As 2s 3s 7c 7d 7h 9d 9h Kc 4d", BEN), "9c", actions=["pass", "discard 4d"]
    )
    with pytest.raises(sk.RecordError) as caught:
        analyse(record)
    assert caught.value.step == 1


def test_the_analyse_command_prints_what_cost_each_player(tmp_path):
    import json

    from click.testing import CliRunner

    from scorekeeper.cli import main

    record = passed_up_deal()
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(record))
    shown = CliRunner().invoke(main, ["analyse", str(path)])
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert lines[0] == "record 0: knock for 51"
    assert (
        "  Ana: gave away 6 deadwood in 1 discard(s); passed up 1 meld(s); missed 0"
        " knock(s) and 0 gin(s); showdown cost 0"
    ) in lines
    assert (
        "    step 1 (Ana, pass): passed up 9♣, which makes [9♣ 9♦ 9♥] (deadwood 4 with it)" in lines
    )
    assert "    step 4 (Ana, discard 4d): kept deadwood 38; best 32 by discarding K♣ K♠" in lines
    assert "  Ben could have laid off 4♠ (4 points)" in lines
    assert "  Ben could have laid off 4♠ 5♠ (9 points)" in lines
    as_json = CliRunner().invoke(main, ["analyse", "--json", str(path)])
    assert json.loads(as_json.output) == analyse(record).to_dict()
    path.write_text(json.dumps({**record, "actions": ["pass", "discard 4d"]}))
    refused = CliRunner().invoke(main, ["analyse", str(path)])
    assert refused.exit_code == 1 and "record 0: step 1:" in refused.output


def test_post_analyse_answers_as_the_openapi_document_says(tmp_path):
    from test_api import Client, error_of

    from api import create_app

    call = Client(create_app({"DB": str(tmp_path / "api.db"), "TESTING": True}))
    record = make_record(
        ("As 2s 3s 7c 7d 7h 9d 9h 9c 5c", "Ac 2c 3c 4d 5d 6d Jh Qh 2h 8s"),
        "Kd",
        "Kh",
        actions=["pass", "pass", "draw stock", "discard Kh", "draw discard", "knock 8s"],
    )
    deal = call("POST", "/api/v1/analyse", json=record)
    assert deal.status_code == 200 and deal.json == analyse(record).to_dict()
    assert deal.json["summary"][0]["missed_knocks"] == 1
    match = call("POST", "/api/v1/analyse", json=simulate_match(4))
    assert match.status_code == 200 and len(match.json["deals"]) >= 1
    error = error_of(
        call("POST", "/api/v1/analyse", json={**record, "actions": ["pass", "discard Kh"]}),
        422,
        "bad_record",
        "actions",
    )
    assert error["message"].startswith("step 1:")


def test_the_replay_viewer_links_carry_the_record_and_show_the_analysis(tmp_path):
    import json
    import re

    from api import create_app

    client = create_app({"DB": str(tmp_path / "pad.db"), "TESTING": True}).test_client()
    form = client.get("/replay").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    record = passed_up_deal()
    posted = client.post(
        "/replay", data={"record": json.dumps(record), "step": "4", "csrf_token": token}
    )
    assert posted.status_code == 303 and posted.headers["Location"].startswith("/replay?r=")
    page = client.get(posted.headers["Location"]).get_data(as_text=True)
    assert "Step 4 of 9" in page
    # the decision at this step is shown, and every decision links to its step
    assert "kept deadwood 38; discarding K♣ or K♠ kept 32." in page
    panel = page[page.index('<section class="analysis"') :]
    assert "<bdi>Ana</bdi>: gave away 6 deadwood in 1 discard; passed up 1 meld;" in panel
    assert "<bdi>Ben</bdi> could have laid off 4♠: 4 points." in panel
    assert "<bdi>Ben</bdi> could have laid off 4♠ 5♠: 9 points." in panel
    links = re.findall(r'<a href="(/replay\?r=[^"&]+&amp;step=(\d+))">Step \d+</a>', panel)
    assert [int(step) for _, step in links] == [1, 4]
    damaged = client.get("/replay?r=not-a-record")
    assert damaged.status_code == 400 and "This replay link is damaged" in damaged.get_data(
        as_text=True
    )
