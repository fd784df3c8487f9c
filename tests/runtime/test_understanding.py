"""Request understanding without a model (apps/runtime/understanding): plans, questions and refusals.

These are the engine's own cases; the blind corpus (bench/bench_corpus.py) is
what measures it on phrasings nobody here wrote.
"""

from __future__ import annotations

from typing import Any

import pytest

from apps.accounts.models import User
from apps.runtime.catalog import current_catalog
from apps.runtime.executor import combination_rules
from apps.runtime.models import StepRecord, Turn
from apps.runtime.paths.choice import choose_path
from apps.runtime.plans.api import validate_plan
from apps.runtime.turns import turn_conduct, turn_submit
from apps.runtime.understanding.frames import Understanding, understand
from apps.runtime.understanding.proposer import propose_from_frames
from apps.runtime.understanding.reading import read_request, request_language

URL = "https://energia.example.it/area-clienti"


def _understood(text: str) -> Understanding:
    return understand(text, current_catalog().manifests)


def _tools(understood: Understanding) -> list[str]:
    assert understood.plan is not None, (understood.question, understood.reason)
    return [step["tool"] for step in understood.plan["steps"]]


def _args(understood: Understanding, index: int = 0) -> dict[str, Any]:
    assert understood.plan is not None, (understood.question, understood.reason)
    return dict(understood.plan["steps"][index]["args"])


@pytest.mark.parametrize(
    "text",
    [
        f"collect all invoices from 2026 from {URL} into ~/Bills/2026.xlsx",
        f"from {URL} collect all invoices from 2026 into ~/Bills/2026.xlsx",
        f"could you please get me every bill of 2026 from {URL} and put them in ~/Bills/2026.xlsx?",
        f"into ~/Bills/2026.xlsx, all the 2026 invoices from {URL} please: collect them",
        f"raccogli tutte le fatture del 2026 da {URL} in ~/Bills/2026.xlsx",
        f"per favore prendimi le bollette 2026 da {URL} e mettile in ~/Bills/2026.xlsx",
    ],
)
def test_the_same_collection_in_any_word_order_politeness_or_language(text: str) -> None:
    understood = _understood(text)

    assert _tools(understood) == ["collect_site_records", "create_files_spreadsheet"]
    assert _args(understood)["url"] == URL
    assert "2026" in _args(understood)["what"]
    assert _args(understood, 1) == {"from_step": 1, "path": "~/Bills/2026.xlsx"}


def test_the_phrase_for_what_to_collect_is_the_users_own_words() -> None:
    understood = _understood(f"Get all bills from 2026 with due date and amount from {URL} into ~/b.xlsx")

    assert _args(understood)["what"] == "all bills from 2026 with due date and amount"


def test_a_spreadsheet_asked_for_without_a_name_gets_one_that_never_overwrites() -> None:
    understood = _understood(f"collect all invoices from 2026 from {URL} into a spreadsheet")

    assert _args(understood, 1)["if_exists"] == "new_name"
    assert _args(understood, 1)["path"].endswith(".xlsx")


@pytest.mark.parametrize(
    "text",
    [
        f"don't collect the invoices from {URL}",
        "Non cancellare niente in ~/Fatture",
        f"I never want you to sign in to {URL}",
        "No need to close the sessions.",
        "I don't want a spreadsheet of the invoices",
        f"Per favore non scaricare nulla da {URL}",
    ],
)
def test_negations_and_prohibitions_never_plan_and_never_ask(text: str) -> None:
    understood = _understood(text)

    assert understood.plan is None and understood.question is None
    assert understood.forbidden


def test_a_harmless_action_beside_a_forbidden_one_plans_only_the_harmless_one() -> None:
    understood = _understood("List the files in ~/Tmp but don't delete anything")

    assert _tools(understood) == ["find_files"]


def test_dont_forget_is_a_request_not_a_prohibition() -> None:
    assert _tools(_understood("don't forget to close the browser sessions")) == ["close_web_sessions"]


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("Collect all bills from 2026 into ~/Bills/2026.xlsx", "url"),
        ("Find my invoices", "folder"),
        ("delete the old files", "too_broad"),
        ("Remove the receipts", "files"),
        ("Sign in to the website", "url"),
        ("Extract the fields from the invoices in ~/Invoices into ~/Invoices/x.xlsx", "fields"),
        (f"Download the 2026 invoices from {URL}", "target_folder"),
        ("Elimina la credenziale", "credential"),
        ("leggili", "files"),
    ],
)
def test_a_request_understood_in_part_gets_a_question_naming_what_is_missing(text: str, missing: str) -> None:
    understood = _understood(text)

    assert understood.plan is None
    assert understood.missing == missing
    assert understood.question


def test_questions_are_asked_in_the_users_language() -> None:
    italian = _understood("Raccogli tutte le bollette del 2026 in ~/Bollette/2026.xlsx")
    english = _understood("Collect all bills from 2026 into ~/Bills/2026.xlsx")

    assert italian.question is not None and italian.question.startswith("Quale sito")
    assert english.question is not None and english.question.startswith("Which website")


@pytest.mark.parametrize(
    "text", ["Book me a flight to Rome", "Move ~/Downloads/invoice.pdf to ~/Invoices", "Stampa ~/Fatture/a.pdf"]
)
def test_requests_outside_the_catalog_get_no_plan(text: str) -> None:
    understood = _understood(text)

    assert understood.plan is None and understood.question is None and not understood.forbidden


def test_italian_verbs_with_joined_pronouns_are_read() -> None:
    understood = _understood("Trova tutti i PDF in ~/Fatture e leggili")

    assert _tools(understood) == ["find_files", "read_files"]
    assert _args(understood, 1) == {"from_step": 1}


def test_a_later_part_uses_only_its_own_files_and_folders() -> None:
    # "delete the old files" must never delete what the first part read.
    understood = _understood("Read the quotes in the Purchasing folder and delete the receipts")

    assert understood.plan is None and understood.missing == "files"


def test_a_credential_question_lists_credentials_for_the_website() -> None:
    understood = _understood(f"Do I have a password saved for {URL}?")

    assert _tools(understood) == ["credentials_list"]
    assert _args(understood) == {"origin": URL}


def test_a_sign_in_and_a_collection_share_the_website_and_the_credential_name() -> None:
    understood = _understood(f"Log in to {URL} with Enel and grab all the 2026 invoices into ~/i.xlsx")

    assert _tools(understood) == ["sign_in", "collect_site_records", "create_files_spreadsheet"]
    assert _args(understood, 0) == {"url": URL, "credential": "Enel"}
    assert _args(understood, 1)["url"] == URL
    assert _args(understood, 2)["from_step"] == 2


def test_getting_and_saving_the_pdfs_is_one_collection_that_saves_them() -> None:
    understood = _understood(f"can you get every bill from last year from {URL} and save the PDFs in ~/Bills/2025?")

    assert _tools(understood) == ["collect_site_documents"]
    assert _args(understood)["save_documents_to"] == "~/Bills/2025"


def test_field_names_keep_each_languages_words() -> None:
    english = _understood("extract the invoice number, date and total from the invoices in ~/Invoices into ~/i.xlsx")
    italian = _understood("estrai numero fattura, data e totale dalle fatture in ~/Fatture in ~/f.xlsx")

    assert _args(english, 2)["fields"] == ["invoice_number", "date", "total"]
    assert _args(italian, 2)["fields"] == ["invoice_number", "date", "total"]


def test_language_is_told_by_the_words() -> None:
    assert request_language("raccogli tutte le bollette") == "it"
    assert request_language("collect all the bills") == "en"
    assert read_request("leggili").language == "it"


def test_every_plan_the_frames_propose_here_validates() -> None:
    catalog = current_catalog()
    for text in (
        f"collect all invoices from 2026 from {URL} into ~/Bills/2026.xlsx",
        "Extract supplier and price from the PDF quotes in ~/Purchasing and put them in ~/Purchasing/summary.xlsx",
        "Find all PDFs in ~/Invoices and delete them",
        f"Download the bills from 2026 from {URL} into ~/Bills and list them in ~/Bills/list.xlsx",
    ):
        understood = _understood(text)
        assert understood.plan is not None, text
        validate_plan(understood.plan, catalog, combination_rules=combination_rules())


def test_empty_and_over_long_requests_are_not_understood() -> None:
    assert _understood("   ").plan is None
    assert _understood("find the pdf files in ~/A " * 200).plan is None


@pytest.mark.django_db
def test_a_collection_signs_in_first_when_the_vault_holds_a_credential_for_the_website(owner: User) -> None:
    from apps.vault.services import credential_save

    text = f"collect all invoices from 2026 from {URL} into ~/Bills/2026.xlsx"
    assert _tools(propose_from_frames(text, current_catalog(), owner=owner, turn_id=1))[0] == "collect_site_records"

    credential_save(owner=owner, origins=["https://energia.example.it"], label="Energia", username="me",
                    secret="canary-secret-value-1234")  # fmt: skip

    signed = propose_from_frames(text, current_catalog(), owner=owner, turn_id=1)
    assert _tools(signed) == ["sign_in", "collect_site_records", "create_files_spreadsheet"]
    assert _args(signed, 2)["from_step"] == 2


@pytest.mark.django_db
def test_a_turn_that_needs_more_answers_with_the_question_and_runs_nothing(owner: User, settings: Any) -> None:
    settings.METNOS_MODEL_TIERS = {}
    turn = turn_conduct(turn=turn_submit(owner=owner, text="Raccogli le bollette del 2026", enqueue=False))

    assert turn.status == Turn.Status.FAILED
    assert turn.answer.startswith("Quale sito devo usare?")
    assert not StepRecord.objects.filter(turn=turn).exists()


@pytest.mark.django_db
def test_a_prohibition_is_acknowledged_in_the_users_language(owner: User, settings: Any) -> None:
    settings.METNOS_MODEL_TIERS = {}
    turn = turn_submit(owner=owner, text="Non cancellare niente in ~/Fatture", enqueue=False)

    choice = choose_path(turn=turn, catalog=current_catalog())

    assert choice.plan is None
    assert choice.refusal == "Va bene, non lo faccio. Non ho fatto nulla."
    assert choice.error_codes == ("request_forbids",)


def test_the_sign_in_goes_before_the_collection_whatever_order_the_request_says_them_in() -> None:
    understood = _understood(
        f"I need every invoice from my orders last year. Go to {URL}, sign in and put invoice number, date and "
        "order total into a spreadsheet."
    )

    assert _tools(understood) == ["sign_in", "collect_site_records", "create_files_spreadsheet"]
    assert _args(understood, 1)["what"] == "every invoice from my orders last year"  # not "invoice number"
    assert _args(understood, 2)["from_step"] == 2


def test_paid_and_unpaid_are_no_payment_request() -> None:
    understood = _understood(
        f"Su {URL} entra nella mia area riservata e fammi un foglio di calcolo con tutti gli avvisi di pagamento "
        "emessi nel 2026, pagati e non pagati"
    )

    assert _tools(understood) == ["sign_in", "collect_site_records", "create_files_spreadsheet"]
    assert _args(understood, 1)["what"] == "tutti gli avvisi di pagamento emessi nel 2026"


def test_a_folder_named_between_the_and_folder_whatever_its_case() -> None:
    understood = _understood("read the txt files in the canary7q4user folder")

    assert _tools(understood) == ["find_files", "read_files"]
    assert _args(understood) == {"base_path": "~/canary7q4user", "pattern": "*.txt"}
    assert _understood("list the files in the same folder").missing == "folder"
