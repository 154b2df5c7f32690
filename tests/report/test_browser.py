"""The report and the calculator in headless Chromium: they load without console errors,
and the calculator shows the advantages worked out by hand.

Needs Debian's ``chromium`` and ``chromium-driver`` (see .ci/apt-packages-browser.txt) and
``selenium``; skipped cleanly when any is absent. Screenshots go to /tmp/rlvr-shots/.
"""

from __future__ import annotations

import importlib.util
import math
import shutil
import tempfile
from pathlib import Path

import pytest

from rlvr.report.calculator import write_calculator
from rlvr.report.html import write_report

from .fake_run import write_fake_run

pytestmark = pytest.mark.browser

CHROMEDRIVER = Path("/usr/bin/chromedriver")
SHOTS = Path("/tmp/rlvr-shots")
MINUS = "\u2212"


def _missing_tool() -> str | None:
    if importlib.util.find_spec("selenium") is None:
        return "selenium not installed (pip install selenium)"
    if not CHROMEDRIVER.exists():
        return "chromedriver not found at /usr/bin/chromedriver (apt-get install chromium-driver)"
    if shutil.which("chromium") is None:
        return "chromium not installed (apt-get install chromium)"
    return None


@pytest.fixture(scope="module")
def driver():
    reason = _missing_tool()
    if reason:
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="rlvr-chromium-")
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={profile}",
                 "--window-size=1400,1000"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    yield drv
    drv.quit()
    shutil.rmtree(profile, ignore_errors=True)


def severe_logs(drv) -> list[dict]:
    return [entry for entry in drv.get_log("browser") if entry["level"] == "SEVERE"]


def screenshot(drv, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    height = drv.execute_script("return document.documentElement.scrollHeight")
    drv.set_window_size(1400, min(int(height) + 160, 8000))  # the window frame takes some height
    path = SHOTS / name
    drv.save_screenshot(str(path))
    drv.set_window_size(1400, 1000)
    return path


def shown_number(drv, element_id: str) -> float:
    return float(drv.find_element("id", element_id).text.replace(MINUS, "-"))


def test_report_loads_without_console_errors(driver, tmp_path):
    path = write_report(write_fake_run(tmp_path / "run"))
    driver.get(path.resolve().as_uri())
    assert driver.title == "rlvr report: fake<run>"
    panels = driver.find_elements("css selector", "section.panel")
    assert len(panels) >= 15
    assert len(driver.find_elements("css selector", "section.panel svg")) >= 12
    # the hostile completion is shown as text, not run as markup
    cells = [c.text for c in driver.find_elements("css selector", "table.samples td.text")]
    assert '<script>alert("x")</script><b>bold</b> & </td>' in cells
    assert driver.find_elements("css selector", "table.samples b") == []
    assert screenshot(driver, "report.png").stat().st_size > 10_000
    assert severe_logs(driver) == []


def test_calculator_advantages_match_hand_values(driver, tmp_path):
    path = write_calculator(tmp_path / "calc.html")
    driver.get(path.resolve().as_uri())
    assert driver.find_element("id", "G").get_attribute("value") == "8"
    buttons = driver.find_elements("css selector", "button[data-rollout]")
    assert len(buttons) == 8 and all(b.get_attribute("data-correct") == "0" for b in buttons)
    assert shown_number(driver, "adv-0") == 0.0 and driver.find_element("id", "zero-var-warning").is_displayed()
    for i in (0, 1, 2):
        buttons[i].click()
    assert [b.get_attribute("data-correct") for b in buttons] == ["1"] * 3 + ["0"] * 5

    # p = 3/8, mean 0.375, population std sqrt(p (1-p)) = 0.48412; A = (r - 0.375) / std
    # correct: sqrt(5/3) = 1.29099, wrong: -sqrt(3/5) = -0.77460 (eps 1e-6 changes the 6th digit)
    assert driver.find_element("id", "adv-0").text == "+1.291"
    assert driver.find_element("id", "adv-3").text == MINUS + "0.775"
    assert (float(driver.find_element("id", "adv-0").get_attribute("data-value"))
            == pytest.approx(math.sqrt(5 / 3), abs=1e-5))
    assert (float(driver.find_element("id", "adv-7").get_attribute("data-value"))
            == pytest.approx(-math.sqrt(3 / 5), abs=1e-5))
    assert shown_number(driver, "std") == pytest.approx(0.4841, abs=1e-4)
    # P(no gradient) = (3/8)^8 + (5/8)^8 = 0.000391 + 0.023283 = 0.023674
    assert float(driver.find_element("id", "p-nograd").get_attribute("data-value")) == pytest.approx(0.023674, abs=1e-6)
    # GRPO weights: A_i / (G |y_i|); rollout 1 (index 0) has length 12 -> 1.29099 / 96
    assert (float(driver.find_element("id", "w-0").get_attribute("data-value"))
            == pytest.approx(math.sqrt(5 / 3) / 96, rel=1e-4))
    assert not driver.find_element("id", "zero-var-warning").is_displayed()
    screenshot(driver, "calculator.png")

    driver.find_element("id", "std-norm").click()  # std off: Dr. GRPO advantages r - mean
    assert driver.find_element("id", "adv-0").text == "+0.625"
    assert driver.find_element("id", "adv-3").text == MINUS + "0.375"
    assert shown_number(driver, "adv-sum") == 0.0

    driver.find_element("id", "preset-dr_grpo").click()  # constant 1/L_max weight: 0.625 / (8 x 64)
    assert float(driver.find_element("id", "w-0").get_attribute("data-value")) == pytest.approx(0.625 / 512)
    assert float(driver.find_element("id", "w-1").get_attribute("data-value")) == pytest.approx(0.625 / 512)
    screenshot(driver, "calculator_dr_grpo.png")
    assert severe_logs(driver) == []


def test_calculator_group_size_change(driver, tmp_path):
    path = write_calculator(tmp_path / "calc.html")
    driver.get(path.resolve().as_uri())
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "G")).select_by_value("4")
    buttons = driver.find_elements("css selector", "button[data-rollout]")
    assert len(buttons) == 4
    buttons[0].click()  # 1 of 4: p = 1/4, std = sqrt(3)/4; A = 0.75 / 0.4330 = sqrt(3) = 1.732
    assert driver.find_element("id", "adv-0").text == "+1.732"
    assert driver.find_element("id", "adv-1").text == MINUS + "0.577"
    # (1/4)^4 + (3/4)^4 = 1/256 + 81/256 = 0.3203
    assert float(driver.find_element("id", "p-nograd").get_attribute("data-value")) == pytest.approx(82 / 256)
    assert severe_logs(driver) == []
