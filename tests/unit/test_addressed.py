"""Names said in address: which speaker a question's name means when the chat calls them by it."""

from __future__ import annotations

from donto.recall.addressed import addressed_as, with_labels
from donto.recall.english import ENGLISH

addresses, impersonal, question_names = ENGLISH.addresses, ENGLISH.impersonal, ENGLISH.names


def test_a_greeting_or_a_closing_after_a_comma_says_a_name_in_address():
    assert addresses("Hey Kate! How was the trip?", "Kate")
    assert addresses("thanks so much Kate!!", "Kate")
    assert addresses("Good morning, Mel. How are the kids?", "Mel")
    assert addresses("That looks amazing, Kate 😊", "Kate")


def test_a_name_spoken_of_or_a_place_after_a_comma_is_no_address():
    assert not addresses("Kate said she would come along.", "Kate")
    assert not addresses("I grew up in Austin, Texas.", "Texas")
    assert not addresses("hey kate", "Kate")  # not written as a name


def test_a_question_uses_its_capitalised_words_past_the_first_as_names():
    assert question_names("What are Kate's hobbies?") == ["Kate"]
    assert question_names("Which cities have both Kate and Elise been to?") == ["Kate", "Elise"]
    assert question_names("what does she like?") == []


def rows(name: str, addressee: str, *texts: str) -> list[dict]:
    return [{"name": name, "speaker": "other", "addressee": addressee, "text": t} for t in texts]


def test_a_name_that_addresses_one_speaker_in_three_turns_names_that_speaker():
    found = rows("Kate", "Emi", "Hey Kate!", "Thanks, Kate!", "Kate said hi", "Morning Kate, coffee?")
    assert addressed_as(found, ENGLISH) == {"kate": "Emi"}


def test_two_addresses_are_not_enough_and_a_name_split_between_speakers_names_neither():
    assert addressed_as(rows("Kate", "Emi", "Hey Kate!", "Thanks, Kate!"), ENGLISH) == {}
    split = rows("Sam", "Ann", "Hi Sam", "Bye Sam", "Thanks, Sam") + rows("Sam", "Bo", "Hi Sam", "Bye Sam")
    assert addressed_as(split, ENGLISH) == {}


def test_a_speakers_own_label_needs_no_alias():
    assert addressed_as(rows("Melanie", "Melanie", "Hey Melanie!", "Thanks, Melanie!", "Wow, Melanie!"), ENGLISH) == {}


def test_the_question_is_asked_again_with_the_label_in_place_of_the_name():
    assert with_labels("What are Kate's hobbies? kate", {"kate": "Emi"}) == "What are Emi's hobbies? Emi"
    assert with_labels("Did Katerina come?", {"kate": "Emi"}) == "Did Katerina come?"


def test_the_vector_arms_are_asked_without_the_speakers_a_question_names():
    assert impersonal("What are Paola's hobbies and Kate’s?", {"Paola", "Kate"}) == "What are their hobbies and their?"
    assert impersonal("Did Emi Tanaka meet Elise in Orlando?", {"Emi Tanaka", "Emi", "Elise"}) == (
        "Did they meet they in Orlando?"
    )
    # A name that is not a speaker's, and a longer word that starts like one, stay.
    assert impersonal("Did Emily go to Paris?", {"Emi"}) == "Did Emily go to Paris?"
    assert impersonal("What did Paola say?", set()) == "What did Paola say?"
