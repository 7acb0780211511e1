"""Decision traces (automa.common.trace): English as written, and the same lines said in another
language from their templates, through plain JSON."""
import copy
import json
import pickle

from automa.common.decision import Decision
from automa.common.trace import Line, Text, Trace, chained, said, text, trace_json

PT = {"card {card}: {left} left": "carta {card}: restam {left}",
      "target: {where}": "alvo: {where}",
      "the {n}th space from {start}": "o {n}º espaço a partir de {start}",
      "3. progress": "3. progresso"}


def translate(template: str) -> str:
    return PT.get(template, template)


def traced() -> Trace:
    trace = Trace()
    trace.add("card {card}: {left} left", card=7, left=3)
    with trace.section("3. progress"):
        trace.add("target: {where}", where=text("the {n}th space from {start}", n=4, start="A"))
        trace.add("a line written {as_is}".replace("{as_is}", "as it is, {braces} kept"))
    return trace


def test_lines_read_in_english_as_written_and_indented():
    assert traced().lines() == ["card 7: 3 left", "3. progress", "  target: the 4th space from A",
                                "  a line written as it is, {braces} kept"]
    assert str(traced()).splitlines()[2] == "  target: the 4th space from A"


def test_the_same_lines_are_said_in_another_language_with_their_values_and_depth():
    lines = traced().lines()
    assert said(trace_json(lines), translate) == ["carta 7: restam 3", "3. progresso", "  alvo: o 4º espaço a partir de A",
                                                  "  a line written as it is, {braces} kept"]
    assert said(trace_json(lines)) == lines, "untranslated, the English"


def test_a_decision_keeps_its_traces_words_through_json():
    d = Decision("automa", "move", "A", "Move.", traced().lines()).to_dict()
    back = json.loads(json.dumps(d))
    assert back["trace"] == traced().lines(), "the English lines, for the command line and saved games"
    assert said(back["trace_words"], translate)[0] == "carta 7: restam 3"


def test_a_line_is_a_string_that_copies_and_pickles_with_its_words():
    line = traced().lines()[2]
    assert isinstance(line, str) and line == "  target: the 4th space from A"
    for again in (copy.deepcopy(line), pickle.loads(pickle.dumps(line))):
        assert isinstance(again, Line) and again == line and again.depth == 1 and again.text == line.text


def test_a_translation_that_breaks_the_fields_falls_back_to_english():
    words = Text("card {card}", {"card": 7})
    assert words.say(lambda t: "carta {carta}") == "card 7"
    assert words.say(lambda t: "carta {card}") == "carta 7"


def test_hand_written_lines_and_unknown_json_are_said_as_they_are():
    assert said(["a line added by hand", [0, "plain"], [2, {"text": "n={n}", "values": {"n": 1}}]]) == \
        ["a line added by hand", "plain", "    n=1"]
    assert Text.from_json({"odd": 1}).say() == "{'odd': 1}"


def test_a_list_of_words_is_said_item_by_item_and_joined():
    trace = Trace()
    trace.add("tried: {actions}", actions=[text("the {n}th space from {start}", n=1, start="B"), "3U"])
    assert trace.lines() == ["tried: the 1th space from B, 3U"]
    assert said(json.loads(json.dumps(trace_json(trace.lines()))), translate) == ["tried: o 1º espaço a partir de B, 3U"]


def test_words_without_values_inside_a_line_are_said_in_the_lines_language():
    trace = Trace()
    trace.add("target: {where}", where=text("3. progress"))
    trace.add("tried: {what}", what=[text("3. progress"), "3U"])
    back = json.loads(json.dumps(trace_json(trace.lines())))
    assert said(back, translate) == ["alvo: 3. progresso", "tried: 3. progresso, 3U"]


def test_no_words_are_no_words_in_any_language():
    header = lambda t: "Project-Id-Version: 1.0" if t == "" else t      # gettext's answer to ""
    assert Text("").say(header) == ""
    assert Text("card {card}{tail}", {"card": 7, "tail": text("")}).say(header) == "card 7"


def test_items_are_chained_by_one_template_whatever_their_number():
    pair = text("{first}; {rest}")
    assert chained([], pair) == "" and chained(["a"], pair) == "a"
    three = chained(["a", text("3. progress"), "c"], pair)
    assert str(three) == "a; 3. progress; c"
    assert three.say(lambda t: {"{first}; {rest}": "{first} / {rest}"}.get(t, translate(t))) == "a / 3. progresso / c"
