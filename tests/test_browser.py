"""The analyst's view, in a real browser: donto's API and a real Neo4j, Neo4j Browser in headless
Chromium (Debian's chromium and chromium-driver), a login, the guide played from donto, its setup
and style blocks run, and a styled claim drawn. Screenshots go to $DONTO_SCREENSHOTS (default: the
test's temporary folder); docs/analyst-*.png in the README came from this test."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from support import Api, claim, served_api

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1600,1000",
)
WAIT_S = 30

NO_BROWSER = not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists())
# Asked for (DONTO_TEST_BROWSER=install, as .ci/run sets it), a missing browser fails instead of skipping.
pytestmark = pytest.mark.skipif(
    NO_BROWSER and os.environ.get("DONTO_TEST_BROWSER") != "install",
    reason="no browser: Debian's chromium and chromium-driver are not installed; `DONTO_TEST_BROWSER=install make "
    "test` installs them (apt-get, as root), or apt-get install chromium chromium-driver yourself",
)


@pytest.fixture(scope="module", autouse=True)
def a_browser_to_drive() -> None:
    assert not NO_BROWSER, f"DONTO_TEST_BROWSER=install, yet there is no {CHROMIUM} and {CHROMEDRIVER}"


@pytest.fixture(scope="module")
def browser_http(memory) -> str:
    """Where this Neo4j serves Browser (its HTTP connector), read from the server's own settings."""
    rows = memory.graph.read(
        lambda tx: tx.run("CALL dbms.listConfig('server.http.listen_address') YIELD name, value RETURN value").data()
    )
    if not rows:
        pytest.skip("this Neo4j serves no HTTP connector (Browser)")
    return "http://" + rows[0]["value"]


@pytest.fixture(scope="module")
def driver(tmp_path_factory) -> Iterator:
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the `test` extra")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium')}"):
        options.add_argument(flag)
    chrome = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=CHROMEDRIVER))
    try:
        yield chrome
    finally:
        chrome.quit()


@pytest.fixture(autouse=True)
def show_the_page_on_failure(request, tmp_path) -> Iterator[None]:
    failed = request.session.testsfailed
    yield
    chrome = request.node.funcargs.get("driver")
    if chrome is not None and request.session.testsfailed > failed:
        chrome.save_screenshot(str(tmp_path / "failed.png"))
        (tmp_path / "failed.html").write_text(chrome.page_source)
        print("the page at the failure:", tmp_path / "failed.png", tmp_path / "failed.html")


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("DONTO_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def wait_for(condition, what: str, timeout: float = WAIT_S):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.25)
    raise AssertionError(f"timed out waiting for {what}")


def visible(driver, css: str) -> list:
    from selenium.webdriver.common.by import By

    return [e for e in driver.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()]


def run_command(driver, text: str) -> None:
    """Type into Browser's editor and run it (Ctrl-Enter), as an analyst does."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    editor = wait_for(lambda: visible(driver, "#monaco-main-editor textarea, .monaco-editor textarea"), "the editor")[0]
    driver.execute_script("arguments[0].focus()", editor)  # a click can land on the editor's cover
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).send_keys(Keys.DELETE).perform()
    editor.send_keys(text)
    ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()


def squeezed(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def editor_text(driver) -> str:
    """What Browser's editor shows (Monaco draws its lines as spans; its textarea holds only a slice)."""
    return driver.execute_script(
        "const lines = document.querySelector('#monaco-main-editor .view-lines, .monaco-editor .view-lines');"
        "return lines ? lines.innerText : '';"
    )


def log_in(driver, user: str, password: str) -> None:
    """Fill Browser's login form and connect. Browser may draw the form again just after it first
    appears (it tries the connection it remembers first), taking the fields away: then fill it again."""
    from selenium.common.exceptions import StaleElementReferenceException

    for attempt in range(3):
        wait_for(lambda: visible(driver, "[data-testid='password']"), "Browser's login form", 60)
        try:
            for testid, value in (("username", user), ("password", password)):
                field = visible(driver, f"[data-testid='{testid}']")[0]
                field.clear()
                field.send_keys(value)
            visible(driver, "[data-testid='connect']")[0].click()
            wait_for(
                lambda: "Connected" in driver.page_source or "You are connected" in driver.page_source, "the login"
            )
            return
        except (IndexError, StaleElementReferenceException, AssertionError):
            if attempt == 2:
                raise
            time.sleep(1)


def captions(driver, text: str) -> list:
    """The drawn graph's texts holding `text` (Browser draws captions as SVG text)."""
    from selenium.webdriver.common.by import By

    return [e for e in driver.find_elements(By.CSS_SELECTOR, "svg text") if text in (e.text or "")]


def hide_consent_banner(driver) -> None:
    """Browser's usage-data banner covers the top of every picture; dismiss it if it is there."""
    driver.execute_script(
        "for (const b of document.querySelectorAll('button, a')) {"
        "  const box = b.closest('div');"
        "  if (box && box.textContent.includes('To help make Neo4j Browser better') && box.textContent.length < 200"
        "      && (b.textContent.trim() === '' || b.textContent.includes('×'))) { b.click(); return; } }"
    )


def next_slide(driver) -> None:
    arrow = wait_for(lambda: visible(driver, "[data-testid='nextSlide']"), "the guide's next-slide arrow")[0]
    driver.execute_script("arguments[0].click()", arrow)  # below the fold once results stack above the guide


def slide_titled(driver, title: str) -> None:
    """Step the guide forward until the slide titled `title` shows (slides come and go; titles stay)."""
    from selenium.webdriver.common.by import By

    def showing() -> bool:
        return any(e.is_displayed() and title in e.text for e in driver.find_elements(By.CSS_SELECTOR, "h3"))

    for _ in range(20):
        if showing():
            return
        next_slide(driver)
        time.sleep(0.3)
    wait_for(showing, f"the slide {title!r}")


def run_runnable(driver, index: int) -> None:
    """Click the guide's runnable block (it lands in the editor), then run it."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    blocks = wait_for(lambda: visible(driver, "pre.runnable"), "the guide's runnable blocks")
    wanted = squeezed(blocks[index].text)[:40]
    driver.execute_script("arguments[0].scrollIntoView(); arguments[0].click()", blocks[index])
    # The click fills the editor a moment later: run before that and Browser runs what was there before.
    wait_for(lambda: squeezed(editor_text(driver)).startswith(wanted), f"the editor to hold {wanted!r}")
    editor = wait_for(lambda: visible(driver, "#monaco-main-editor textarea, .monaco-editor textarea"), "the editor")[0]
    driver.execute_script("arguments[0].focus()", editor)  # a click can land on the editor's cover
    ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()


def test_an_analyst_plays_the_guide_and_sees_claims_as_sentences(
    driver, client, settings, neo4j_connection, browser_http, workspace, shots
):

    api = Api(client, workspace)
    assert api.put("/v1/predicates/ceo_of", json={"cardinality": "one"}).status_code == 200
    cook = api.write(claim("apple", "ceo_of", "tim-cook", valid_from="2011-08-24"))["claims"][0]["id"]
    api.write(claim("jane", "has_signing_authority_for", "apple", valid_from="2024-01-01", derived_from=[cook]))
    api.write(claim("apple", "ceo_of", "john-ternus", valid_from="2026-06-01"))
    bolt, user, password = neo4j_connection

    with served_api(settings) as port:
        driver.get(f"{browser_http}/browser/?dbms={bolt.replace('bolt://', 'neo4j://')}")
        log_in(driver, user, password)

        # Browser reads the server's remote-content allowlist just after the login; a :play before
        # that is refused ("No guide by that name"), so an analyst (and this test) plays it again.
        for attempt in range(3):
            run_command(driver, f":play http://127.0.0.1:{port}/analyst/guide?workspace={workspace}")
            try:
                wait_for(lambda: f"workspace {workspace}" in driver.page_source, "the guide's first slide", 10)
                break
            except AssertionError:
                if attempt == 2:
                    raise
        if attempt:  # clear the refused attempts' frames, so the picture shows what an analyst keeps
            run_command(driver, ":clear")
            run_command(driver, f":play http://127.0.0.1:{port}/analyst/guide?workspace={workspace}")
            wait_for(lambda: f"workspace {workspace}" in driver.page_source, "the guide's first slide")
        hide_consent_banner(driver)
        driver.save_screenshot(str(shots / "analyst-guide.png"))

        shown = driver.page_source.count(f'"{workspace}"')  # the guide shows the :params block
        run_runnable(driver, 0)  # :params {...}
        wait_for(lambda: driver.page_source.count(f'"{workspace}"') > shown, "the guide's parameters set")
        run_runnable(driver, 1)  # :style http://127.0.0.1:PORT/analyst/donto.grass
        wait_for(lambda: "node.Claim" in driver.page_source, "donto's style applied")

        slide_titled(driver, "A claim and its two intervals")
        run_runnable(driver, 0)
        wait_for(lambda: captions(driver, "apple · ceo_of ·"), "a claim captioned subject · predicate · object")
        time.sleep(1)  # the force layout settles
        driver.save_screenshot(str(shots / "analyst-claim.png"))

        slide_titled(driver, "The premise walk")  # the stale premise beside what replaced it
        run_runnable(driver, 0)
        wait_for(lambda: captions(driver, "tim-cook"), "the stale premise")
        wait_for(lambda: captions(driver, "derived from"), "the DERIVED_FROM link captioned")
        time.sleep(1)
        driver.save_screenshot(str(shots / "analyst-premise-walk.png"))
    if os.environ.get("DONTO_SCREENSHOTS"):
        print("screenshots in", shots, sorted(p.name for p in shots.glob("analyst-*.png")))
