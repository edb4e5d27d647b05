"""ONNX Runtime embedding: parity with sentence-transformers, every model file checked, no torch.

The parity set is made up for this test (gear, kitchens, gardens, repairs); the reference is
sentence-transformers loading the same checked folder.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_helpers import run_cli

from graph.cli import index as index_cli
from tools import embeddings, onnx_embed, onnx_export
from tools.embeddings import MODEL_FILES, EmbeddingError
from tools.index_store import open_index
from tools.onnx_embed import OnnxEmbeddings

pytest.importorskip("onnxruntime", reason="the [dense] extra is not installed")
ROOT = Path(__file__).resolve().parents[1]

TUNE_PASSAGES = [
    "The Falcon road bike has a carbon frame and weighs seven kilograms.",
    "Hold the pinhole button for ten seconds to reset the wireless router.",
    "Our bakery opens at six in the morning and sells sourdough loaves.",
    "The telescope mount tracks stars automatically once it is aligned.",
    "Refunds for unopened headphones are issued within fourteen days.",
    "A small paraffin heater keeps the greenhouse tomatoes warm at night.",
    "Marine paint protects the hull of a sailing boat from barnacles.",
    "Descale the espresso machine every month with a citric acid rinse.",
    "The kiln door seal must be replaced when the fibre rope frays.",
    "Prune apple trees in late winter, before the buds begin to swell.",
    "A torque wrench set to 5 Nm prevents cracking the seat post clamp.",
    "Error E-12 on the dishwasher means the drain pump is blocked.",
    "Store flour in an airtight tin to keep weevils out of the pantry.",
    "The heat pump's outdoor fan stops when the coil is defrosting.",
    "Replace the bathroom silicone if black mould spreads under it.",
    "Lithium batteries should be stored half charged in a cool room.",
    "The violin bow hair is rosined before each practice session.",
    "Sharpen kitchen knives on a whetstone at a fifteen degree angle.",
    "Compost needs a mix of green kitchen scraps and brown dry leaves.",
    "The solar inverter shows a red light when the grid voltage is high.",
    "   Leading and trailing spaces are stripped before tokenizing.   ",
    "Ünïcödé, café and naïve are spelled with accents; 東京 is Tokyo.",
    "word " * 400,  # longer than max_seq_length: truncated the same way
    "x",
]
TUNE_QUERIES = [
    "how heavy is the Falcon bicycle",
    "restart my wifi box",
    "when does the bread shop open",
    "money back for earphones",
    "keeping plants warm in winter",
    "coffee maker limescale",
    "dishwasher will not drain",
    "how to store batteries",
    "fix a frayed kiln seal",
    "what does the red inverter light mean",
]


def ranking(passages: np.ndarray, query: np.ndarray, k: int = 10) -> list[int]:
    """Top-k passage positions by cosine, ties by position."""
    scores = passages @ query
    return sorted(range(len(scores)), key=lambda i: (-float(scores[i]), i))[:k]


@pytest.fixture(scope="module")
def model() -> OnnxEmbeddings:
    return onnx_embed.default_embeddings()


def test_vectors_and_rankings_match_sentence_transformers(model: OnnxEmbeddings) -> None:
    st = pytest.importorskip("sentence_transformers", reason="the reference needs torch")
    reference = st.SentenceTransformer(str(model.folder), device="cpu", local_files_only=True)

    def expected(texts: list[str]) -> np.ndarray:
        return reference.encode(texts, normalize_embeddings=True, convert_to_numpy=True)

    ours_p, ours_q = model.encode(TUNE_PASSAGES), model.encode(TUNE_QUERIES)
    ref_p, ref_q = expected(TUNE_PASSAGES), expected(TUNE_QUERIES)
    cosines = np.concatenate([(ours_p * ref_p).sum(axis=1), (ours_q * ref_q).sum(axis=1)])
    assert cosines.min() >= 0.9999, cosines
    for i, query in enumerate(TUNE_QUERIES):
        assert ranking(ours_p, ours_q[i]) == ranking(ref_p, ref_q[i]), query
    # one text at a time (the one-thread session) gives the same vectors as the batch
    assert model.encode(TUNE_QUERIES[:1])[0] == pytest.approx(ours_q[0], abs=1e-5)


def copy_model(tmp_path: Path, skip: str = "") -> Path:
    """A model folder of links to the genuine files (all but `skip`)."""
    real, fake = embeddings.model_dir(), tmp_path / "model"
    for name in MODEL_FILES:
        (fake / name).parent.mkdir(parents=True, exist_ok=True)
        if name != skip:
            (fake / name).symlink_to(real / name)
    return fake


def edit_json(path: Path, change: Callable[[Any], None]) -> bytes:
    data = json.loads(path.read_text())
    change(data)
    return json.dumps(data).encode()


def swap_two_tokens(tokenizer: dict[str, Any]) -> None:
    vocab = tokenizer["model"]["vocab"]
    vocab["car"], vocab["bike"] = vocab["bike"], vocab["car"]


EDITS: dict[str, Callable[[Path], bytes]] = {
    "1_Pooling/config.json": lambda p: edit_json(
        p, lambda d: d.update(pooling_mode_cls_token=True, pooling_mode_mean_tokens=False)
    ),
    "config.json": lambda p: edit_json(p, lambda d: d.update(num_hidden_layers=1)),
    "tokenizer.json": lambda p: edit_json(p, swap_two_tokens),
    "tokenizer_config.json": lambda p: edit_json(p, lambda d: d.update(model_max_length=16)),
    "sentence_bert_config.json": lambda p: edit_json(p, lambda d: d.update(max_seq_length=8)),
    "modules.json": lambda p: edit_json(p, lambda d: d.pop()),  # no Normalize module
    "vocab.txt": lambda p: p.read_bytes().replace(b"\ncar\n", b"\nbike\n", 1),
}


@pytest.mark.parametrize("name", sorted(EDITS))
def test_every_file_that_shapes_the_vectors_is_checked(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = copy_model(tmp_path, skip=name)
    data = EDITS[name](embeddings.model_dir() / name)
    (fake / name).write_bytes(data)
    monkeypatch.setenv(embeddings.MODEL_DIR_ENV, str(fake))
    with pytest.raises(EmbeddingError) as refused:
        onnx_embed.default_embeddings()
    digest = hashlib.sha256(data).hexdigest()
    assert str(refused.value) == (
        f"{fake / name}: sha256 {digest[:16]}... is not all-MiniLM-L6-v2's "
        f"({MODEL_FILES[name][:16]}...); refusing to load it"
    )
    assert not (fake / "onnx-agent").exists()  # refused before any export


@pytest.mark.parametrize("name", ["model.safetensors", "tokenizer.json"])
def test_a_fifo_in_the_model_folder_is_refused_without_blocking(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = copy_model(tmp_path, skip=name)
    os.mkfifo(fake / name)
    monkeypatch.setenv(embeddings.MODEL_DIR_ENV, str(fake))
    outcome: list[BaseException] = []

    def load() -> None:
        try:
            onnx_embed.default_embeddings()
        except EmbeddingError as e:
            outcome.append(e)

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(120)
    assert not worker.is_alive(), "opening the FIFO blocked"
    assert [str(e) for e in outcome] == [f"{fake / name}: not a regular file; refusing to read it"]


@pytest.fixture
def export_copy(model: OnnxEmbeddings, tmp_path: Path) -> Path:
    """A copy of the genuine export folder (model.onnx and its record)."""
    target = tmp_path / "export"
    target.mkdir()
    for name in (onnx_export.ONNX_FILE, onnx_export.RECORD_FILE):
        shutil.copy(model.graph.parent / name, target / name)
    return target


def test_the_kept_export_is_checked_by_hash(export_copy: Path) -> None:
    onnx = export_copy / onnx_export.ONNX_FILE
    assert onnx_export.read_export(export_copy)  # a copy: new inode, so hashed, then recorded
    record = json.loads((export_copy / onnx_export.RECORD_FILE).read_text())
    assert record["checked"] == onnx_export.file_key(onnx)
    data = bytearray(onnx.read_bytes())
    data[len(data) // 2] ^= 0x01  # one bit in the weights
    onnx.write_bytes(bytes(data))
    assert not onnx_export.read_export(export_copy)
    onnx.unlink()
    os.mkfifo(onnx)
    assert not onnx_export.read_export(export_copy)  # and it does not block


def test_an_export_from_other_sources_is_not_used(export_copy: Path) -> None:
    path = export_copy / onnx_export.RECORD_FILE
    record = json.loads(path.read_text())
    record["sources"]["model.safetensors"] = "0" * 64
    path.write_text(json.dumps(record))
    assert not onnx_export.read_export(export_copy)


def test_a_damaged_export_is_made_again_from_the_checked_weights(
    model: OnnxEmbeddings, tmp_path: Path
) -> None:
    pytest.importorskip("torch", reason="the export needs torch")
    fake = copy_model(tmp_path)
    target = onnx_export.export_dir(fake)
    assert target == fake / "onnx-agent"  # beside the model: its folder is writable
    target.mkdir()
    (target / onnx_export.ONNX_FILE).write_bytes(b"not a model")
    shutil.copy(model.graph.parent / onnx_export.RECORD_FILE, target / onnx_export.RECORD_FILE)
    again = onnx_export.ensure_export(fake)
    assert again == target / onnx_export.ONNX_FILE
    assert again.read_bytes() == model.graph.read_bytes()  # the export is deterministic


def test_a_read_only_model_folder_keeps_its_export_in_the_user_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "site-packages-model"
    folder.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert onnx_export.export_dir(folder) == folder / "onnx-agent"
    monkeypatch.setattr(onnx_export.os, "access", lambda path, mode: False)  # as if read-only
    expected = tmp_path / "cache" / "agentic-rag" / "all-MiniLM-L6-v2-onnx"
    assert onnx_export.export_dir(folder) == expected


FORBIDDEN = ("onnxruntime", "tokenizers", "torch", "sentence_transformers", "transformers")


def test_the_cli_and_bm25_paths_import_no_embedding_runtime(tmp_path: Path) -> None:
    code = f"""
import sys
from graph.cli.main import main
import tools, tools.bm25, tools.dense, tools.embeddings, tools.hybrid, tools.retrievers
import tools.embedding_cache, tools.search, graph.app.corpus_specs
try:
    main(["ask", "What is the refund window for a pair of boots?"])
except SystemExit as done:
    assert not done.code, done.code
print(sorted(m for m in sys.modules if m.split(".")[0] in {FORBIDDEN!r}))
"""
    env = {**os.environ, "AGENT_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    env.pop("AGENT_RETRIEVER", None)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_an_unchanged_folder_is_indexed_again_without_the_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AGENT_HOME", str(tmp_path / "home"))
    docs = tmp_path / "docs"
    docs.mkdir()
    for i, text in enumerate(TUNE_PASSAGES[:4]):
        (docs / f"p{i}.txt").write_text(text)
    code, out, err = run_cli(capsys, "index", "gear", str(docs), "--retriever", "hybrid")
    assert code == 0, err

    def no_model(folder: str) -> None:
        raise AssertionError("the model was loaded")

    monkeypatch.setattr(onnx_embed, "_load", no_model)
    monkeypatch.setattr(index_cli, "_process_age", lambda: 100.0)  # as if started 100 s ago
    code, out, err = run_cli(capsys, "index", "gear", str(docs), "--retriever", "hybrid")
    assert code == 0, err
    assert "4 files (0 read, 4 unchanged)" in out
    assert float(out.strip().rsplit(", ", 1)[1].removesuffix(" s")) >= 100.0  # the whole process's
    dense = open_index(tmp_path / "home" / "indexes", "gear").dense
    assert dense is not None and dense.model == "all-MiniLM-L6-v2"  # kept, nothing embedded


def test_a_folder_corpus_keeps_its_vectors_between_asks(
    model: OnnxEmbeddings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("AGENT_HOME", str(tmp_path / "home"))
    docs = tmp_path / "docs"
    docs.mkdir()
    for i, text in enumerate(TUNE_PASSAGES[:6]):
        (docs / f"p{i}.txt").write_text(text)
    embedded: list[list[str]] = []
    inner = OnnxEmbeddings.encode

    def counting(self: OnnxEmbeddings, texts: list[str], batch_size: int = 64) -> np.ndarray:
        embedded.append(list(texts))
        return inner(self, texts, batch_size)

    monkeypatch.setattr(OnnxEmbeddings, "encode", counting)

    def ask() -> list[str]:
        embedded.clear()
        argv = ["ask", "how heavy is the Falcon bike", "--corpus", f"gear={docs}"]
        code, out, err = run_cli(capsys, *argv, "--retriever", "hybrid")
        assert code == 0, err
        assert "[p0.txt]" in out
        return [text for call in embedded for text in call if re.match(r"p\d\.txt", text)]

    first = ask()
    assert sum("Falcon road bike" in t for t in first) == 1  # the folder's passages, once
    assert ask() == []  # the second ask embeds only its queries
    (docs / "p1.txt").write_text("Hold the reset button for twenty seconds instead.")
    assert ask() == ["p1.txt. Hold the reset button for twenty seconds instead."]
