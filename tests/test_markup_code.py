"""Documents read as written: code stays code, directives and roles leave their text (issue 19.5).

Made-up reStructuredText and Markdown (with MyST) files, read through the folder loader.
"""

from __future__ import annotations

from pathlib import Path

from folder_text import read

from corpora import load_corpus
from corpora.documents import SPLIT_THRESHOLD
from corpora.markup import markdown_sections, rst_sections

RST = """.. _pump-guide:

Pump Guide
==========

.. py:currentmodule:: pumps

The :class:`~pumps.Impeller` spins at :data:`MAX_RPM` and the :ref:`seal <seal-page>` holds.
See :pep:`8` for style. Use ``prime()`` or :func:`.pumps.drain` first.

Start it like this::

    # prime before the first run
    pump.prime()
    =====

.. code-block:: python
   :caption: restart.py

   # Restart
   -------
   pump.restart()

.. versionchanged:: 2.4

   The seal is rated for 6 bar.

.. note:: Drain the pump in winter.

.. highlight:: text

..
   A comment the reader never sees.

.. _a link: https://example.invalid/pump

Maintenance
-----------

Oil the bearing monthly. The log is kept as follows:

>>> log.open()
'ok'

After the doctest.
"""

MD = """(pump-md)=
# Valve Guide

The {class}`~valves.Gate` closes in {math}`3` seconds; see {ref}`the seal <seal>`.

```python
# not a heading
valve.close()
```

    # indented code, not a heading either
    valve.open()

- a list item

      still the list, not code

```{versionadded} 1.2
Valves report their position.
```

:::{warning}
Never force the wheel.
:::

```{eval-rst}
.. note::

   Grease the stem yearly.

.. code-block:: sh

   # rst code inside MyST
   valvectl grease
```

```{toctree}
:maxdepth: 2
install
```

## Settings

Set `max_open` to ``30``.
"""


def test_rst_code_stays_code_and_markup_leaves_only_text(tmp_path: Path) -> None:
    got = read(tmp_path, "pump.rst", RST)
    assert list(got) == ["pump.rst > Pump Guide", "pump.rst > Pump Guide > Maintenance"]
    assert got["pump.rst > Pump Guide"] == (
        "The Impeller spins at MAX_RPM and the seal holds. See PEP 8 for style. "
        "Use prime() or pumps.drain first. Start it like this:\n\n"
        "```\n# prime before the first run\npump.prime()\n=====\n```\n\n"
        "```\n# Restart\n-------\npump.restart()\n```\n\n"
        "Changed in version 2.4. The seal is rated for 6 bar. Drain the pump in winter."
    )
    assert got["pump.rst > Pump Guide > Maintenance"] == (
        "Oil the bearing monthly. The log is kept as follows:\n\n"
        "```\n>>> log.open()\n'ok'\n```\n\nAfter the doctest."
    )


def test_markdown_code_stays_code_and_myst_directives_leave_their_text(tmp_path: Path) -> None:
    got = read(tmp_path, "valve.md", MD)
    assert list(got) == ["valve.md > Valve Guide", "valve.md > Valve Guide > Settings"]
    assert got["valve.md > Valve Guide"] == (
        "The Gate closes in 3 seconds; see the seal.\n\n"
        "```\n# not a heading\nvalve.close()\n```\n\n"
        "```\n# indented code, not a heading either\nvalve.open()\n```\n\n"
        "a list item\n\nstill the list, not code "
        "New in version 1.2. Valves report their position. Never force the wheel. "
        "Grease the stem yearly.\n\n"
        "```\n# rst code inside MyST\nvalvectl grease\n```"
    )
    assert got["valve.md > Valve Guide > Settings"] == "Set max_open to 30."


def test_code_spans_keep_their_text_verbatim() -> None:
    (section,) = markdown_sections("Define `__init__` or `*args` but not _this_ or **that**.")
    assert section.text == "Define __init__ or *args but not this or that."
    (section,) = rst_sections("A ``__slots__`` class and `a link <https://x.invalid>`_.")
    assert section.text == "A __slots__ class and a link."


def test_a_bare_ref_or_doc_target_reads_as_its_words_capitalised_like_a_title() -> None:
    (section,) = rst_sections(
        "* :ref:`pump-release-notes`: did you add a note?\n"
        "* See the :doc:`guides/seal_care` page or :ref:`the seal <seal>`, and :func:`~a.prime`."
    )
    assert section.text == (
        "Pump release notes: did you add a note? See the Seal care page or the seal, and prime."
    )
    (section,) = markdown_sections("Read {ref}`valve-sizes` first.")
    assert section.text == "Read Valve sizes first."


def test_a_link_without_text_reads_as_its_targets_words_and_an_address_as_itself() -> None:
    (section,) = markdown_sections(
        "For pumps see [](priming.md). Seals are covered in [](seals/care.md#dry-running_seals)"
        " and [](#valve-sizes); the spec is [](<https://x.invalid/spec>), the [manual](m.md)."
    )
    assert section.text == (
        "For pumps see Priming. Seals are covered in Dry running seals and Valve sizes; the spec"
        " is https://x.invalid/spec, the manual."
    )


def test_a_long_section_is_cut_between_prose_and_code_never_inside_a_fence(
    tmp_path: Path,
) -> None:
    prose = " ".join(f"Step {n} tightens bolt {n} by hand." for n in range(40))
    code = "\n".join(f"    torque({n})  # bolt {n}" for n in range(80))
    text = f"Bolts\n=====\n\n{prose}\n\nRun this::\n\n{code}\n\nThen {prose}\n"
    (tmp_path / "bolts.rst").write_text(text)
    passages = load_corpus(tmp_path, name="kb").passages
    assert len(passages) > 3
    for passage in passages:
        assert len(passage.text) <= SPLIT_THRESHOLD
        fences = [line for line in passage.text.split("\n") if line == "```"]
        assert len(fences) % 2 == 0  # every code piece opens and closes its own fence
    lines = [line for p in passages for line in p.text.split("\n") if line.startswith("torque(")]
    assert lines == [f"torque({n})  # bolt {n}" for n in range(80)]  # each line once, in order


def test_a_link_target_ends_at_its_blank_line_and_an_indented_table_after_it_stays(
    tmp_path: Path,
) -> None:
    text = (
        "Dial Codes\n==========\n\nThe table below lists the codes.\n\n"
        " .. _`Dial reference`:\n    https://example.org/dial\n\n"
        "  +------+-------------+\n  | Code | Meaning     |\n  +======+=============+\n"
        "  | 7    | Low battery |\n  +------+-------------+\n\nAfter the table.\n"
    )
    got = read(tmp_path, "dial.rst", text)
    assert got == {
        "dial.rst > Dial Codes": (
            "The table below lists the codes.\n\nCode | Meaning\n\n7 | Low battery\n\n"
            "After the table."
        )
    }


def test_mkdocs_tabs_keep_their_title_and_body_and_autodoc_lines_leave_nothing(
    tmp_path: Path,
) -> None:
    text = (
        "# Kettle\n\nPick a style.\n\n"
        '=== "Glass"\n\n    The glass kettle shows the water level.\n\n'
        '=== "Steel"\n\n    ```python\n    kettle.boil()\n    ```\n\n'
        '??? abstract "Reference"\n    ::: kettle.Kettle\n        options:\n'
        "            show_root_heading: true\n\nThe kettle boils in 90 seconds.\n"
    )
    got = read(tmp_path, "kettle.md", text)
    assert got == {
        "kettle.md > Kettle": (
            "Pick a style. Glass The glass kettle shows the water level. Steel\n\n"
            "```\nkettle.boil()\n```\n\nThe kettle boils in 90 seconds."
        )
    }


def test_an_admonition_with_no_body_keeps_its_title(tmp_path: Path) -> None:
    text = '# Kettle\n\n!!! warning "Unplug the kettle before descaling"\n\nThen rinse it.\n'
    got = read(tmp_path, "kettle.md", text)
    assert got == {"kettle.md > Kettle": "Unplug the kettle before descaling Then rinse it."}


def test_rst_table_rows_read_one_a_line_with_multi_line_cells_joined(tmp_path: Path) -> None:
    text = (
        "Options\n=======\n\nThe command accepts:\n\n"
        "+------------+-----------------------+\n| Option     | Description           |\n"
        "+============+=======================+\n| ``--pot``  | the template file     |\n"
        "|            | (defaults to none)    |\n+------------+-----------------------+\n"
        "| ``-q``     | print nothing         |\n+------------+-----------------------+\n\n"
        "=====  ======\nMode   Effect\n=====  ======\nfast   skips checks\n"
        "       and logs\nslow   checks all\n=====  ======\n"
    )
    got = read(tmp_path, "opts.rst", text)
    assert got == {
        "opts.rst > Options": "\n\n".join(
            [
                "The command accepts:",
                "Option | Description",
                "--pot | the template file (defaults to none)",
                "-q | print nothing",
                "Mode | Effect",
                "fast | skips checks and logs",
                "slow | checks all",
            ]
        )
    }


def test_an_autodoc_directive_keeps_what_its_body_writes_and_file_metadata_leaves_nothing(
    tmp_path: Path,
) -> None:
    text = (
        ":orphan:\n:tocdepth: 2\n\nKiln API\n========\n\n"
        ".. autoclass:: Kiln\n    :members:\n\n"
        "    .. attribute:: __zone__\n\n        The firing zone; defaults to ``None``.\n\n"
        ".. autofunction:: fire\n\nThe kiln fires at dawn.\n"
    )
    got = read(tmp_path, "api.rst", text)
    assert got == {
        "api.rst > Kiln API": (
            "Kiln __zone__ The firing zone; defaults to None. The kiln fires at dawn."
        )
    }


def test_underscores_mark_emphasis_in_markdown_only(tmp_path: Path) -> None:
    (tmp_path / "rst").mkdir()
    (tmp_path / "md").mkdir()
    rst = read(tmp_path / "rst", "m.rst", "Kiln\n====\n\nSet __fuel__ to _two_ bars.\n")
    md = read(tmp_path / "md", "m.md", "# Kiln\n\nSet __fuel__ to _two_ bars.\n")
    assert rst == {"m.rst > Kiln": "Set __fuel__ to _two_ bars."}
    assert md == {"m.md > Kiln": "Set fuel to two bars."}


def test_a_markdown_code_span_keeps_its_placeholder_and_a_line_break_keeps_a_space(
    tmp_path: Path,
) -> None:
    text = (
        "# Release\n\nPush `kiln/prepare/<version>` and set `target=<version>`.\n\n"
        "- the newest kiln, etc.\\\n  Use it for tests.\n"
    )
    got = read(tmp_path, "release.md", text)
    assert got == {
        "release.md > Release": (
            "Push kiln/prepare/<version> and set target=<version>. "
            "the newest kiln, etc. Use it for tests."
        )
    }


def test_rst_named_references_read_as_their_words_and_list_tables_a_row_a_line(
    tmp_path: Path,
) -> None:
    text = (
        "Kiln\n====\n\nRun it in Docker_ with tox_ or see Flask-Kiln_; __init__ stays.\n\n"
        ".. list-table::\n   :header-rows: 1\n\n   * - Code\n     - Meaning\n"
        "   * - KILN_HOT\n     - The kiln is\n       hot\n\n"
        ".. _Docker: https://x.invalid\n.. _tox: https://x.invalid\n"
    )
    got = read(tmp_path, "kiln.rst", text)
    assert got == {
        "kiln.rst > Kiln": (
            "Run it in Docker with tox or see Flask-Kiln; __init__ stays.\n\n"
            "Code | Meaning\n\nKILN_HOT | The kiln is hot"
        )
    }


def test_a_simple_table_is_cut_at_its_rules_columns_and_a_signature_stays_as_code(
    tmp_path: Path,
) -> None:
    text = (
        "Kiln\n====\n\n.. autoclass:: KilnStore(path='/kilns', size=10)\n    :members:\n\n"
        "===== ===== ===========\nName  Field Description\n===== ===== ===========\n"
        "``*`` any   Fires on every value\n===== ===== ===========\n"
    )
    got = read(tmp_path, "kiln.rst", text)
    assert got == {
        "kiln.rst > Kiln": (
            "```\nKilnStore(path='/kilns', size=10)\n```\n\n"
            "Name | Field | Description\n\n* | any | Fires on every value"
        )
    }


def test_a_cut_never_parts_a_sentence_ending_in_a_colon_from_the_code_it_introduces(
    tmp_path: Path,
) -> None:
    example = "\n".join(f"    kiln.fire({n})" for n in range(65))  # a passage nearly full
    text = (
        "Kiln\n====\n\nThe kiln fires in batches::\n\n"
        f"{example}\n\nTo fire on a schedule, pass a crontab expression::\n\n"
        "    kiln.fire(cron='0 0 * * *')\n\nThe kiln then cools by itself.\n"
    )
    (tmp_path / "kiln.rst").write_text(text)
    passages = load_corpus(tmp_path, name="kb").passages
    assert len(passages) == 2
    intro = "To fire on a schedule, pass a crontab expression:"
    (holder,) = [p for p in passages if intro in p.text]
    assert f"{intro}\n\n```\nkiln.fire(cron='0 0 * * *')\n```" in holder.text


def test_an_option_directive_leads_with_the_term_it_defines(tmp_path: Path) -> None:
    text = (
        "Kiln CLI\n========\n\n"
        ".. option:: --zones N\n\n   Number of firing zones. Defaults to 2.\n\n"
        ".. envvar:: KILN_HOME\n\n   Where the kiln keeps its logs.\n"
    )
    got = read(tmp_path, "cli.rst", text)
    assert got == {
        "cli.rst > Kiln CLI": (
            "--zones N: Number of firing zones. Defaults to 2. "
            "KILN_HOME: Where the kiln keeps its logs."
        )
    }


def test_a_definition_list_term_leads_its_definition(tmp_path: Path) -> None:
    text = (
        "Kiln settings\n=============\n\n"
        "zone_grace\n    Seconds to wait for a zone to cool. Defaults to 5.\n"
        "Firing order.\n    The order zones fire in.\n"
    )
    got = read(tmp_path, "settings.rst", text)
    assert got == {
        "settings.rst > Kiln settings": (
            "zone_grace: Seconds to wait for a zone to cool. Defaults to 5. "
            "Firing order. The order zones fire in."
        )
    }


def test_an_intersphinx_inventory_name_is_not_shown_but_a_literal_roles_text_is() -> None:
    (section,) = rst_sections(
        "See :ref:`kilnbook:firing-curves` and :term:`python:argument`, "
        "then open :samp:`http://localhost:{port}` and :file:`C:/kiln`; :cpp:func:`zone::heat`."
    )
    assert section.text == (
        "See Firing curves and argument, then open http://localhost:{port} and C:/kiln; zone::heat."
    )


def test_an_objects_type_and_value_and_a_settings_default_are_read(tmp_path: Path) -> None:
    text = (
        "Kiln API\n========\n\n"
        ".. data:: MAX_ZONES\n   :type: int\n   :value: 6\n\n   How many zones a kiln may have.\n\n"
        ".. py:attribute:: Kiln.vent\n   :type: bool\n\n   Whether the vent is open.\n\n"
        ".. confval:: zone_grace\n   :type: float\n   :default: 5.0\n   :noindex:\n\n"
        "   Seconds to wait for a zone to cool.\n"
    )
    got = read(tmp_path, "api.rst", text)
    assert got == {
        "api.rst > Kiln API": (
            "MAX_ZONES: int = 6 How many zones a kiln may have. "
            "Kiln.vent: bool Whether the vent is open. "
            "zone_grace: Type: float. Default: 5.0. Seconds to wait for a zone to cool."
        )
    }


def test_a_roles_escaped_angle_brackets_are_text_and_an_inline_literal_is_kept_whole() -> None:
    (section,) = rst_sections(
        "File :gh:`Adopt kiln \\<name\\> <issues/new?title=x>` and `the \\<zone\\> guide "
        "<https://kiln.invalid>`_; write ``zone_map <zones>`` or ``a\\b``."
    )
    assert section.text == (
        "File Adopt kiln <name> and the <zone> guide; write zone_map <zones> or a\\b."
    )


def test_comments_targets_and_notes_leave_only_their_text(tmp_path: Path) -> None:
    text = (
        ".. Licensed to the Kiln project.\n   See NOTICE.\n\n:orphan:\n\n"
        "Kiln\n====\n\n"
        ".. [[[cog\n    print('zones')\n.. ]]]\n.. [[[end]]] (sum: 1B2M2Y8Asg)\n\n"
        "The kiln fires at night [#f1]_, as x[2]_ says. Read `the story <Varn story_>`_ first.\n\n"
        "__ https://kiln.invalid/story\n\n"
        ".. version-added:: 7.10 ``--zones``\n\n"
        ".. versionchanged:: 2.0\n   Now faster.\n\n"
        ".. ifconfig:: prerelease\n\n   This is a prerelease.\n\n"
        ".. [#f1] Only in winter.\n"
    )
    got = read(tmp_path, "kiln.rst", text)
    assert got == {
        "kiln.rst > Kiln": (
            "The kiln fires at night, as x[2]_ says. Read the story first. "
            "New in version 7.10: --zones. Changed in version 2.0. Now faster. "
            "This is a prerelease. Only in winter."
        )
    }


def test_escapes_literals_and_labels_read_as_docutils_and_commonmark_do(tmp_path: Path) -> None:
    (section,) = rst_sections(
        ":term:`~python:argument` and :ref:`a \\<b\\>` and :ref:`Path C:\\ <target>`; "
        "see [ISO:8601]_."
    )
    assert section.text == "argument and A <b> and Path C:; see."
    # in Markdown a backslash in a code span is code: emphasis around it changes nothing
    (section,) = markdown_sections("Files go in _`C:\\Users\\kiln`_ now.")
    assert section.text == "Files go in _C:\\Users\\kiln now."
    text = (
        "Kiln API\n========\n\n"
        ".. py:property:: Kiln.heat\n   :type: float\n\n   The chamber's heat.\n\n"
        ".. [ISO:8601] A date standard.\n\n.. [] An empty label is a comment.\n"
    )
    got = read(tmp_path, "api.rst", text)
    assert got == {"api.rst > Kiln API": "Kiln.heat: float The chamber's heat. A date standard."}
