"""What the activity feed shows of a tool's error: what happened, not the instructions to the model."""

from stacgis_agent.ui.tool_error_text import for_analyst, needs_a_choice

SHARED_NAME = ("Several places are called 'Springfield': Springfield (city, Missouri, United States, pop. 170,188); "
               "Springfield (city, Massachusetts, United States, pop. 154,341). Nothing was moved. Ask the user "
               "which one they mean (ask_user), then call zoom_to_location again with place and country "
               "(e.g. place='Paris', country='US'), or with layer and feature_id, or with lon/lat. "
               "Fix the arguments or try another tool.")


def test_a_shared_place_name_keeps_the_places_and_folds_the_instructions():
    told, hints = for_analyst(SHARED_NAME)
    assert told == ("Several places are called 'Springfield': Springfield (city, Missouri, United States, pop. "
                    "170,188); Springfield (city, Massachusetts, United States, pop. 154,341). Nothing was moved.")
    assert hints.startswith("Ask the user which one they mean (ask_user)") and hints.endswith("another tool.")
    assert needs_a_choice(SHARED_NAME)


def test_an_error_with_advice_for_a_person_is_shown_whole():
    text = "No item of 'sentinel-2-l2a' over the area in 2024-06; widen the dates."
    assert for_analyst(text) == (text, "") and not needs_a_choice(text)


def test_invalid_arguments_say_what_was_wrong_without_the_retry_instruction():
    told, hints = for_analyst("Invalid arguments for 'zoom_to_location': bbox needs 4 numbers. "
                              "Call it again with corrected arguments.")
    assert told == "Invalid arguments for 'zoom_to_location': bbox needs 4 numbers."
    assert hints == "Call it again with corrected arguments."


def test_a_message_that_is_only_an_instruction_is_not_emptied():
    assert for_analyst("Call it again with corrected arguments.") == ("Call it again with corrected arguments.", "")


def test_a_call_the_analyst_declined_is_not_shown_as_waiting_for_a_choice():
    for declined in ("Not run: the user did not approve this action. Do not retry it; ask the user what they want "
                     "instead.", "The user declined 'remove_layer'. Do not retry it; ask the user what to do instead."):
        told, hints = for_analyst(declined)
        assert not needs_a_choice(declined) and told.startswith(("Not run", "The user declined"))
        assert hints.startswith("Do not retry it")
