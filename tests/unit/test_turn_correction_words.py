"""The English words of a turn that corrects an earlier one (english.py: `correction`, `corrects`) and
the choice of the turn it corrects (episodes/corrections.py: `links`): a correction says so, a doubt,
a question, a condition, a contrast or someone else's words do not, and the earlier turn must have
said what is taken back; of several, the nearest by the same speaker."""

from __future__ import annotations

import pytest

from donto.episodes.corrections import CORRECTION_WINDOW, links
from donto.recall.english import ENGLISH
from donto.recall.language import Correction

pytestmark = pytest.mark.unit

TAKEN_BACK = [
    ("Sorry, it was July, not August.", "July", "August"),
    ("sorry it was july not august", "july", "august"),
    ("It was July, not August", "July", "August"),
    ("I meant Tuesday, not Monday.", "Tuesday", "Monday"),
    ("Oops, I meant Tuesday not Monday!", "Tuesday", "Monday"),
    ("Correction: the meeting is on Tuesday, not Monday.", "Tuesday", "Monday"),
    ("correction: July, not August", "July", "August"),
    ("It wasn't August, it was July.", "July", "August"),
    ("it was not August but July", "July", "August"),
    ("Not August, July.", "July", "August"),
    ("Not in August but in July.", "July", "August"),
    ("I said August, I meant July.", "July", "August"),
    ("I said August but I meant July", "July", "August"),
    ("July instead of August, sorry.", "July", "August"),
    ("My bad, it was 2019, not 2018.", "2019", "2018"),
    ("It was 2019, not 2018", "2019", "2018"),
    ("Sorry, I meant the red one, not the blue one.", "red one", "blue one"),
    ("Whoops — make that Friday, not Thursday.", "Friday", "Thursday"),
    ("It was 40, not 30.", "40", "30"),
    ("We had a great time. Sorry, it was June, not May.", "June", "May"),
    ("Actually it was July, not August, my bad.", "July", "August"),
]

RIGHT_ONLY = [
    ("Sorry, I meant July.", "July"),
    ("actually it was 2019", "2019"),
    ("Oops, Tuesday.", "Tuesday"),
    ("I meant July", "July"),
    ("Correction: it was 2021.", "2021"),
    ("sorry, in July", "July"),
    ("My mistake, it was Wednesday!", "Wednesday"),
]

NOT_A_CORRECTION = [
    "I'm not sure about August.",
    "I'm not sure it was August.",
    "Not sure, August maybe.",
    "Was it July, not August?",
    "It was July, not August?",
    "If it was July, not August, we'd have gone swimming.",
    "Maybe July, not August.",
    "I think it was July, not August.",
    "I don't know whether it was July or August.",
    "He said sorry, it was July, not August.",
    'She wrote "sorry, it was July, not August" on the card.',
    "Tell him 'I meant Tuesday, not Monday' next time.",
    "I like cats, not dogs.",
    "Not bad, thanks.",
    "Not now, later.",
    "It was fun, not boring.",
    "No, not August.",
    "No, it was July.",
    "Actually I moved to Amsterdam.",
    "Actually it was great.",
    "I mean, it was fun.",
    "Sorry, I can't make it in August.",
    "Sorry to hear that.",
    "Sorry, I meant it.",
    "I meant well.",
    "Actually, the cake was lovely.",
    "It was July and August.",
    "July, not July.",
    "We went in July. Not in August.",
    "",
    "   ",
    "not " * 200,
    "Sorry, I meant to ask about July.",
    "Actually, 2019 was a great year.",
    "Oh, Monday works, not Tuesday?",
    "It was the best of times, not the worst.",
]


@pytest.mark.parametrize(("text", "value", "replaced"), TAKEN_BACK)
def test_a_correction_that_takes_a_value_back_names_both(text, value, replaced):
    assert ENGLISH.correction(text) == Correction(value=value, replaced=replaced)


@pytest.mark.parametrize(("text", "value"), RIGHT_ONLY)
def test_a_correction_owning_a_mistake_may_name_only_the_right_value(text, value):
    assert ENGLISH.correction(text) == Correction(value=value)


@pytest.mark.parametrize("text", NOT_A_CORRECTION)
def test_a_doubt_a_question_a_contrast_or_someone_elses_words_correct_nothing(text):
    assert ENGLISH.correction(text) is None


def test_a_correction_is_a_short_sentence_of_a_long_turn():
    chatter = "It was a lovely day by the lake. " * 500
    assert ENGLISH.correction(chatter + "Sorry, it was July, not August.") == Correction("July", "August")
    rambling = "Sorry" + ", sorry" * 40 + ", it was July, not August."
    assert ENGLISH.correction(rambling) is None  # past CORRECTION_CHARS: no correction is said so


def test_a_long_hostile_text_is_read_quickly():
    import time

    text = ("sorry, it was " + "very " * 2000 + "July, not " * 500 + "?") * 3
    started = time.perf_counter()
    ENGLISH.correction(text)
    assert time.perf_counter() - started < 1.0


def test_the_earlier_turn_must_say_the_value_taken_back():
    august = Correction(value="July", replaced="August")
    assert ENGLISH.corrects("We met in August at the lake.", august)
    assert ENGLISH.corrects("we met in august", august)
    assert not ENGLISH.corrects("We met at the lake.", august)
    assert not ENGLISH.corrects("It was not in August.", august)  # denied there already
    assert not ENGLISH.corrects("Augusta is lovely.", august)  # a whole word
    may = Correction(value="June", replaced="May")
    assert ENGLISH.corrects("Lisbon is in May 2027.", may)
    assert not ENGLISH.corrects("I may go to Lisbon.", may)  # the word, not the month
    blue = Correction(value="red one", replaced="blue one")
    assert ENGLISH.corrects("I bought the blue  one.", blue)


def test_a_right_value_alone_corrects_the_one_other_value_of_its_kind():
    july = Correction(value="July")
    assert ENGLISH.corrects("We went to Skye in August.", july)
    assert not ENGLISH.corrects("We went to Skye in July and August.", july)  # which? none
    assert not ENGLISH.corrects("We went in July.", july)  # said already
    assert not ENGLISH.corrects("We went to Skye.", july)
    assert not ENGLISH.corrects("It may rain.", july)  # "may" is no month
    year = Correction(value="2019")
    assert ENGLISH.corrects("We moved there in 2018.", year)
    assert not ENGLISH.corrects("From 2016 to 2018 we lived there.", year)
    assert ENGLISH.corrects("See you on Monday!", Correction(value="Tuesday"))
    assert not ENGLISH.corrects("We went in August.", Correction(value="cats"))  # no kind


def turn(seq: int, text: str, speaker: str = "Maya") -> dict:
    return {"id": f"t{seq}", "seq": seq, "speaker": speaker, "text": text}


def test_the_nearest_earlier_turn_of_the_same_speaker_is_corrected_and_only_it():
    held = [
        turn(0, "The wedding was in August."),
        turn(1, "Our trip was in August too."),
        turn(2, "Lovely! August is nice.", speaker="Sam"),
        turn(3, "Sorry, it was July, not August."),
    ]
    assert links([held[3]], held, ENGLISH) == [{"later": "t3", "earlier": "t1", "value": "July", "replaced": "August"}]


def test_another_speakers_turn_or_one_past_the_window_is_never_corrected():
    held = [turn(0, "We met in August.", speaker="Sam"), turn(1, "Sorry, it was July, not August.")]
    assert links([held[1]], held, ENGLISH) == []
    far = [turn(0, "We met in August."), turn(CORRECTION_WINDOW + 1, "Sorry, it was July, not August.")]
    assert links([far[1]], far, ENGLISH) == []
    near = [turn(1, "We met in August."), turn(CORRECTION_WINDOW + 1, "Sorry, it was July, not August.")]
    assert [link["earlier"] for link in links([near[1]], near, ENGLISH)] == ["t1"]


def test_no_turn_that_said_the_value_means_no_link():
    held = [turn(0, "We met at the lake."), turn(1, "It was lovely."), turn(2, "Sorry, I meant July.")]
    assert links([held[2]], held, ENGLISH) == []
    doubt = [turn(0, "We met in August."), turn(1, "I'm not sure about August.")]
    assert links([doubt[1]], doubt, ENGLISH) == []
