# wordsvc: slim Python, non-root, lexicons compiled at image build, served by `wordsvc serve` (wordsvc/server/).
#   docker build -t wordsvc .
#   docker run --rm -p 8000:8000 -v wordsvc-ledger:/app/var wordsvc
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    WORDSVC_HOST=0.0.0.0 \
    WORDSVC_PORT=8000 \
    WORDSVC_WORKERS=2 \
    XDG_CACHE_HOME=/tmp/cache

# myspell-et and unmunch: candidate words for the Estonian solver (wordlists/et/README.md); Debian's word lists the
# other languages are built from (the Makefile's LANGUAGE_PACKAGES; each wordlists/<folder>/manifest.yaml names its own)
RUN apt-get update && apt-get install -y --no-install-recommends myspell-et hunspell-tools \
    wngerman hunspell-de-de iso-codes wspanish hunspell-es wfrench wdutch wpolish witalian wportuguese wdanish \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 10001 wordsvc
WORKDIR /app

# XDG_CACHE_HOME: the compiled word catalogues (docs/translations.md) go under /tmp, writable where the root is read-only.

# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml README.md ./
COPY requirements/ requirements/
COPY wordsvc/__init__.py wordsvc/__init__.py
# Every package pinned with its hashes (requirements/base.txt, written by `make lock`), the project itself without deps.
RUN pip install --require-hashes --no-deps -r requirements/base.txt \
 && pip install --no-deps --no-build-isolation -e . \
 && pip install --require-hashes --no-deps -r requirements/estonian-nodeps.txt

COPY wordsvc/ wordsvc/
COPY rulesets/ rulesets/
COPY wordlists/ wordlists/
RUN wordsvc build && chown -R wordsvc:wordsvc /app/build \
 && mkdir -p /app/var && chown wordsvc:wordsvc /app/var

# The ledger's SQLite file (WORDSVC_DATABASE_URL unset): keep it on a volume, `docker run -v wordsvc-ledger:/app/var ...`;
# several containers share a PostgreSQL instead (WORDSVC_DATABASE_URL=postgresql+psycopg://...).
VOLUME /app/var

USER wordsvc
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/ready', timeout=2).status != 200)"
CMD ["wordsvc", "serve"]
