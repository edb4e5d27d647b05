import pytest
from langchain_core.messages import ToolMessage

from tools.calculator import MAX_INPUT_CHARS, calculator, evaluate_expression

NORMAL = [
    ("0.18 * 250", "45.0"),
    ("2+3", "5"),
    ("2 + 3 * 4", "14"),
    ("(2 + 3) * 4", "20"),
    ("7/2", "3.5"),
    ("10/2", "5.0"),
    ("7 // 2", "3"),
    ("10 % 3", "1"),
    ("2**10", "1024"),
    ("2 ** -1", "0.5"),
    ("-(-3)", "3"),
    ("+4 - -2", "6"),
    ("-2 ** 2", "-4"),
    ("1.5 * 4", "6.0"),
    (".5 + .25", "0.75"),
    ("1e3", "1000.0"),
    ("1_000 + 1", "1001"),
    ("0.1 + 0.2", "0.30000000000000004"),
    ("  12  ", "12"),
    ("2 ** 0.5", "1.4142135623730951"),
    ("(-8) ** 2", "64"),
    ("10 ** 399 // 10 ** 398", "10"),
    # documented conveniences
    ("18% * 250", "45.0"),
    ("250 * 18%", "45.0"),
    ("(50%)", "0.5"),
    ("3 × 4", "12"),
    ("3 x 4", "12"),
    ("8 ÷ 2", "4.0"),
    ("2^10", "1024"),
    ("5 − 2", "3"),
    ("$1,250 * 2", "2500"),
    ("1,234.5 + 0.5", "1235.0"),
]


@pytest.mark.parametrize(("expression", "expected"), NORMAL)
def test_normal_arithmetic(expression: str, expected: str) -> None:
    assert evaluate_expression(expression) == expected


HOSTILE = [
    "__import__('os')",
    "__import__('os').system('true')",
    "os",
    "pi",
    "abs(-1)",
    "(1).__class__",
    "x.y",
    "[1, 2][0]",
    "'1' + '1'",
    "b'1'",
    "f'{1}'",
    "1j",
    "True + 1",
    "None",
    "...",
    "lambda: 1",
    "1 if 1 else 2",
    "1 < 2",
    "1 and 2",
    "not 1",
    "~1",
    "1 << 1000",
    "1 | 2",
    "2,5",
    "{1: 2}",
    "[x for x in (1,)]",
    "import os",
    "1; 2",
    "1\n+ 2",
    "1 +",
    "()",
    "9**9**9",
    "2**100000",
    "10**10**10",
    "(10**200)**3",
    "3**10000 * 3**10000",
    "10**399 * 10**399",
    "2.0 ** 100000",
    "1e308 * 10",
    "1e999",
    "-1e999 + 1e999",
    "10**399 / 3",
    "10**399 * 1.5",
    "9" * 500,
    "1/0",
    "1 // 0",
    "1 % 0",
    "0.0 / 0",
    "0 ** -1",
    "(-8) ** (1/3)",
    "",
    "   ",
    "1" * (MAX_INPUT_CHARS + 1),
    "1+" * 500 + "1",  # 1,001 characters
    "(" * 400 + "1" + ")" * 400,
    "-" * 999 + "1",
    "\x00",
    "1\x002",
    "%",
    "18%%",
]


@pytest.mark.timeout(5)
@pytest.mark.parametrize("expression", HOSTILE)
def test_hostile_input_returns_an_error_string(expression: str) -> None:
    result = evaluate_expression(expression)
    assert isinstance(result, str)
    assert result.startswith("error: ")
    assert len(result) < 120
    assert "\n" not in result


def test_non_string_input_is_an_error() -> None:
    assert evaluate_expression(42).startswith("error")  # type: ignore[arg-type]


def test_long_sum_within_the_limit_is_fine() -> None:
    expression = "+".join(["1"] * 500)  # 999 characters
    assert evaluate_expression(expression) == "500"


def test_bombs_are_refused_with_a_reason() -> None:
    assert evaluate_expression("9**9**9") == "error: exponent larger than 10000"
    assert evaluate_expression("1/0") == "error: division by zero"
    assert "too large" in evaluate_expression("3**5000")
    assert "finite" in evaluate_expression("1e308 * 10")


def test_tool_schema_and_description() -> None:
    schema = calculator.tool_call_schema.model_json_schema()
    assert calculator.name == "calculator"
    assert list(schema["properties"]) == ["expression"]
    assert schema["required"] == ["expression"]
    assert schema["properties"]["expression"]["description"]
    assert "arithmetic" in calculator.description


def test_tool_returns_result_and_error_messages() -> None:
    assert calculator.invoke({"expression": "0.18 * 250"}) == "45.0"
    assert calculator.invoke({"expression": "__import__('os')"}).startswith("error")
    call = {"type": "tool_call", "id": "c1", "name": "calculator", "args": {"expression": "1/0"}}
    message = calculator.invoke(call)
    assert isinstance(message, ToolMessage)
    assert message.status == "error"
    assert message.content == "error: division by zero"
    ok = calculator.invoke({**call, "args": {"expression": "2+3"}})
    assert (ok.content, ok.status) == ("5", "success")
