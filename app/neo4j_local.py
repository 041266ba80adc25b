"""donto's local Neo4j Community server: jars resolved from Maven Central, one JVM we start and stop.

Layout: <runtime>/lib holds the jars (shared by every home); <home> holds conf, data, logs and run
(run/donto-neo4j.pid names our JVM). No Docker and no Neo4j tarball: `mvn dependency:copy-dependencies`
on neo4j/pom.xml, then `java org.neo4j.server.CommunityEntryPoint`.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from pydantic import SecretStr

from app.settings import NEO4J_POM, LocalNeo4jSettings

USER = "neo4j"
PID_FILE = "donto-neo4j.pid"
VERSION_MARKER = ".donto-neo4j-version"  # in <runtime>/lib: which version the jars are
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


@dataclass
class LocalNeo4jStatus:
    running: bool
    pid: int | None
    bolt_uri: str
    browser_url: str
    user: str
    data_dir: Path
    message: str


def find_java(env: Mapping[str, str]) -> str | None:
    """$JAVA_HOME/bin/java when JAVA_HOME is set, else `java` on env's PATH."""
    java_home = env.get("JAVA_HOME")
    if java_home and (Path(java_home) / "bin" / "java").is_file():
        return str(Path(java_home) / "bin" / "java")
    return shutil.which("java", path=env.get("PATH", ""))


def port_in_use(port: int) -> bool:
    """True when something on 127.0.0.1 already listens on (or holds) the port."""
    with socket.socket() as probe:
        probe.settimeout(0.5)
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            return True
    with socket.socket() as probe:
        # SO_REUSEADDR: only a live listener makes bind fail, not TIME_WAIT leftovers of a past server.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


class LocalNeo4j:
    def __init__(self, settings: LocalNeo4jSettings, env: Mapping[str, str] | None = None) -> None:
        self.settings = settings
        self.env = dict(os.environ if env is None else env)  # how java/mvn are found; tests pass their own
        self.home = settings.home.resolve()  # relative paths are relative to the working directory
        self.lib = settings.runtime.resolve() / "lib"
        self.pid_file = self.home / "run" / PID_FILE
        self.browser_url = f"http://127.0.0.1:{settings.http_port}/browser/"

    # -- install -------------------------------------------------------------------------------
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
            raise LocalNeo4jError("Java is not installed (no JAVA_HOME, no `java` on PATH); Neo4j 5.26 needs Java 17 or 21")
        if not NEO4J_POM.is_file():
            raise LocalNeo4jError(f"{NEO4J_POM} is missing; run `donto neo4j install` from a donto checkout")
        # Resolve into a fresh sibling, then swap it in: an interrupted or older install never mixes jars.
        partial = self.lib.with_name("lib.partial")
        shutil.rmtree(partial, ignore_errors=True)
        command = [mvn, "-q", "-B", "-f", str(NEO4J_POM), "dependency:copy-dependencies",
                   "-DincludeScope=runtime", f"-DoutputDirectory={partial}",
                   f"-Dneo4j.version={self.settings.version}"]
        done = subprocess.run(command, env=self.env, capture_output=True, text=True)
        if done.returncode != 0:
            raise LocalNeo4jError(f"mvn could not resolve Neo4j {self.settings.version}:\n"
                                  + _tail(done.stdout + done.stderr))
        (partial / VERSION_MARKER).write_text(self.settings.version + "\n")
        shutil.rmtree(self.lib, ignore_errors=True)
        partial.rename(self.lib)

    # -- start / stop / status -----------------------------------------------------------------
    def start(self) -> LocalNeo4jStatus:
        java = find_java(self.env)
        if java is None:
            raise LocalNeo4jError("Java is not installed (no JAVA_HOME, no `java` on PATH); "
                                  "Neo4j 5.26 needs Java 17 or 21")
        if not self.installed():
            raise LocalNeo4jError(f"Neo4j {self.settings.version} jars are not in {self.lib}; "
                                  "run `donto neo4j install` first")
        if self._running_pid() is not None:
            return self.status("already running")
        for name, port in (("Bolt", self.settings.bolt_port), ("HTTP", self.settings.http_port)):
            if port_in_use(port):
                raise LocalNeo4jError(
                    f"port {port} on 127.0.0.1 (Neo4j {name}) is already in use by another process; "
                    f"stop it or choose another port (DONTO_NEO4J_{name.upper()}_PORT)")
        self._write_conf()
        env = {**self.env, "NEO4J_HOME": str(self.home), "NEO4J_CONF": str(self.home / "conf")}
        classpath = f"{self.lib}/*"
        if not (self.home / "data" / "dbms").exists():  # the password can only be set before first start
            done = subprocess.run(
                [java, "-cp", classpath, "org.neo4j.cli.AdminTool", "dbms", "set-initial-password",
                 self.settings.password.get_secret_value()],
                env=env, capture_output=True, text=True)
            if done.returncode != 0:
                raise LocalNeo4jError("could not set the initial Neo4j password:\n" + _tail(done.stdout + done.stderr))
        heap = self.settings.heap
        console = self.home / "logs" / "console.log"
        began = time.monotonic()
        with console.open("ab") as log:
            process = subprocess.Popen(
                [java, "-cp", classpath, *JVM_FLAGS, f"-Xms{heap}", f"-Xmx{heap}",
                 "org.neo4j.server.CommunityEntryPoint", f"--home-dir={self.home}",
                 f"--config-dir={self.home / 'conf'}", "--console-mode"],
                env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)  # its own process group: Ctrl-C in our terminal does not kill it
        self.pid_file.write_text(f"{process.pid}\n")
        try:
            self._wait_until_ready(process, began)
        except BaseException:
            self.stop()
            raise
        return self.status(f"started in {time.monotonic() - began:.1f} s")

    def stop(self, timeout_s: float = 60.0) -> None:
        """SIGTERM the server's process group, SIGKILL it after timeout_s; fine when nothing runs."""
        pid = self._running_pid()
        if pid is not None:
            _signal_group(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout_s
            while _alive(pid) and time.monotonic() < deadline:
                time.sleep(0.1)
            if _alive(pid):
                _signal_group(pid, signal.SIGKILL)
                while _alive(pid):
                    time.sleep(0.05)
        self.pid_file.unlink(missing_ok=True)

    def status(self, message: str | None = None) -> LocalNeo4jStatus:
        pid = self._running_pid()
        return LocalNeo4jStatus(
            running=pid is not None, pid=pid, bolt_uri=self.settings.bolt_uri, browser_url=self.browser_url,
            user=USER, data_dir=self.home / "data", message=message or ("running" if pid else "not running"))

    # -- internals -----------------------------------------------------------------------------
    def _write_conf(self) -> None:
        """The whole neo4j.conf, rewritten each start. Neo4j rejects unknown or repeated keys."""
        for sub in ("conf", "data", "logs", "run"):
            (self.home / sub).mkdir(parents=True, exist_ok=True)
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
            "dbms.usage_report.enabled=false",
        ]
        (self.home / "conf" / "neo4j.conf").write_text("\n".join(lines) + "\n")

    def _wait_until_ready(self, process: subprocess.Popen, began: float) -> None:
        """Until Bolt authenticates and HTTP answers; raise with console.log's tail if the JVM exits."""
        from neo4j import GraphDatabase
        from neo4j.exceptions import AuthError

        auth = (USER, self.settings.password.get_secret_value())
        deadline = began + self.settings.start_timeout_s
        while True:
            if process.poll() is not None:
                raise LocalNeo4jError(f"Neo4j exited with status {process.returncode} while starting; "
                                      f"the end of {self.home / 'logs' / 'console.log'}:\n{self._console_tail()}")
            try:
                with GraphDatabase.driver(self.settings.bolt_uri, auth=auth) as driver:
                    driver.verify_connectivity()
                with urllib.request.urlopen(f"http://127.0.0.1:{self.settings.http_port}/", timeout=2):
                    return
            except Exception as exc:
                if isinstance(exc, AuthError):
                    raise LocalNeo4jError(f"Neo4j in {self.home} rejects the configured password; it was set "
                                          "on first start (DONTO_NEO4J_PASSWORD) and is kept in data/") from exc
                if time.monotonic() > deadline:
                    raise LocalNeo4jError(f"Neo4j did not answer within {self.settings.start_timeout_s:.0f} s; "
                                          f"the end of its console.log:\n{self._console_tail()}") from exc
            time.sleep(0.25)

    def _running_pid(self) -> int | None:
        """The pid in our pid file when it is our live server JVM; a stale file is removed."""
        try:
            pid = int(self.pid_file.read_text().strip())
        except (OSError, ValueError):
            return None
        if _alive(pid) and f"--home-dir={self.home}" in _command_line(pid):
            return pid
        self.pid_file.unlink(missing_ok=True)
        return None

    def _console_tail(self) -> str:
        try:
            return _tail((self.home / "logs" / "console.log").read_text(errors="replace"))
        except OSError:
            return "(no console.log)"


def _tail(text: str, lines: int = 30) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def _alive(pid: int) -> bool:
    """Whether pid is a live process; reaps it first when it is our own exited child (no zombies)."""
    try:
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    except ChildProcessError:
        pass  # not our child: someone else reaps it
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return bool(_command_line(pid))  # a zombie has an empty command line


def _command_line(pid: int) -> str:
    if Path("/proc/self").exists():  # Linux; elsewhere ask ps
        try:
            return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            return ""
    done = subprocess.run(["ps", "-p", str(pid), "-o", "command="], capture_output=True, text=True)
    return done.stdout.strip()


def _signal_group(pid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pid, sig)  # start_new_session made the JVM its group's leader: pgid == pid
    except ProcessLookupError:
        pass


@contextmanager
def throwaway_server(runtime: Path, parent: Path | None = None) -> Iterator[tuple[str, str, str]]:
    """A fresh, small Neo4j in a temporary home on two free ports; yields (bolt_uri, user, password).
    Stopped and deleted on exit. `parent` is where the temporary home goes (default: the temp dir)."""
    home = Path(tempfile.mkdtemp(prefix="donto-neo4j-", dir=parent))
    with socket.socket() as bolt, socket.socket() as http:  # both held at once, so they differ
        bolt.bind(("127.0.0.1", 0))
        http.bind(("127.0.0.1", 0))
        ports = bolt.getsockname()[1], http.getsockname()[1]
    password = secrets.token_urlsafe(16)
    local = LocalNeo4j(LocalNeo4jSettings(
        home=home, runtime=runtime, bolt_port=ports[0], http_port=ports[1],
        password=SecretStr(password), heap="512m", pagecache="256m"))
    try:
        local.install()
        local.start()
        yield local.settings.bolt_uri, USER, password
    finally:
        local.stop()
        shutil.rmtree(home, ignore_errors=True)
