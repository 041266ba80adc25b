"""Corrections on both axes: "I moved to Glasgow in August", then "sorry, it was July". A claim written
with `corrects` is the old one's new version: the old one's transaction time closes as it is written,
so reads as known before still see what donto believed then, reads now see the corrected one, a
CORRECTS relation links them, and the premise walk says a conclusion rests on a corrected premise."""

from __future__ import annotations

from support import Api, claim


def moved(month: str, **more: object) -> dict:
    return claim("lena", "lives_in", "glasgow", valid_from=f"2024-{month}-01", **more)


def test_a_correction_replaces_the_old_version_as_known_from_then_and_keeps_it_as_known_before(api: Api):
    said = api.write(moved("08"))
    [august] = said["claims"]
    corrected = api.write(moved("07", corrects=august["id"]))
    [july] = corrected["claims"]
    assert july["created"] is True

    now = api.list(subject="lena", predicate="lives_in", valid_at="2024-07-15T00:00:00Z")
    assert [c["id"] for c in now] == [july["id"]]  # in July, as known now: the corrected version
    believed = api.list(
        subject="lena", predicate="lives_in", valid_at="2024-08-15T00:00:00Z", known_at=said["recorded_at"]
    )
    assert [c["id"] for c in believed] == [august["id"]]  # what donto believed before the correction
    before = api.list(
        subject="lena", predicate="lives_in", valid_at="2024-07-15T00:00:00Z", known_at=said["recorded_at"]
    )
    assert before == []  # and then, in July she had not moved yet

    old = api.get(f"/v1/claims/{august['id']}").json()
    assert old["tx_to"] == corrected["recorded_at"]
    assert old["retraction_reason"] == f"corrected by {july['id']}"
    assert old["corrected_by"] == [july["id"]] and old["corrects"] == []
    new = api.get(f"/v1/claims/{july['id']}").json()
    assert new["corrects"] == [august["id"]] and new["tx_from"] == corrected["recorded_at"] and new["tx_to"] is None


def test_a_conclusion_derived_from_the_old_version_says_its_premise_was_corrected_and_by_what(api: Api):
    [august] = api.write(moved("08"))["claims"]
    derived = api.write(claim("lena", "lives_near", "the-clyde", derived_from=[august["id"]]))
    [nearby] = derived["claims"]
    assert api.get(f"/v1/claims/{nearby['id']}/status").json()["status"] == "UNVERIFIED"
    corrected = api.write(moved("07", corrects=august["id"]))
    [july] = corrected["claims"]

    status = api.get(f"/v1/claims/{nearby['id']}/status").json()
    assert status["status"] == "POTENTIALLY_STALE"
    [reason] = status["reasons"]
    assert (reason["claim_id"], reason["kind"], reason["by"]) == (august["id"], "corrected", [july["id"]])
    as_known_before = api.get(f"/v1/claims/{nearby['id']}/status", params={"known_at": derived["recorded_at"]})
    assert as_known_before.json()["status"] == "UNVERIFIED"  # before the correction, the premise held
    retracted = api.write(claim("lena", "works_at", "the-library"))["claims"][0]
    [on_it] = api.write(claim("lena", "reads_at", "the-library", derived_from=[retracted["id"]]))["claims"]
    api.post(f"/v1/claims/{retracted['id']}/retract", json={"reason": "wrong person"})
    [plain] = api.get(f"/v1/claims/{on_it['id']}/status").json()["reasons"]
    assert (plain["kind"], plain["by"]) == ("retracted", [])  # a retraction without a new version stays one


def test_correcting_a_claim_already_corrected_is_a_409_naming_the_field_and_writes_nothing(api: Api):
    [august] = api.write(moved("08"))["claims"]
    api.write(moved("07", corrects=august["id"]))
    batch = [claim("ann", "likes", "tea"), moved("06", corrects=august["id"])]
    response = api.post("/v1/claims", json={"claims": batch})
    assert response.status_code == 409, response.text
    assert response.json()["error"]["field"] == "claims[1].corrects"
    assert api.list(subject="ann") == []  # all or nothing: the batch's other claim was not written


def test_a_correction_must_name_a_known_claim_say_something_new_and_be_the_only_one_of_its_target(api: Api):
    [august] = api.write(moved("08"))["claims"]
    cases = [
        ([moved("07", corrects="no-such-claim")], "claims[0].corrects", 422),
        ([moved("08", corrects=august["id"])], "claims[0].corrects", 422),  # says what it corrects already
        ([moved("07", corrects=august["id"]), moved("06", corrects=august["id"])], "claims[1].corrects", 422),
    ]
    for claims, field, code in cases:
        response = api.post("/v1/claims", json={"claims": claims})
        assert response.status_code == code, (claims, response.text)
        assert response.json()["error"]["field"] == field
    assert [c["id"] for c in api.list(subject="lena")] == [august["id"]]  # nothing written, nothing closed
