from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.get_preflight_result_profile import GetPreflightResultProfile
from ...models.preflight_result import PreflightResult
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    file_path: str,
    *,
    profile: GetPreflightResultProfile,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_service_documentpassword, Unset):
        headers["x-service-documentpassword"] = x_service_documentpassword

    if not isinstance(x_service_documentpassword_base64, Unset):
        headers["x-service-documentpassword-base64"] = x_service_documentpassword_base64

    if not isinstance(if_none_match, Unset):
        headers["if-none-match"] = if_none_match



    

    params: dict[str, Any] = {}

    json_profile = profile.value
    params["profile"] = json_profile

    params["versionId"] = version_id


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/pdfservice/v1/documents/{file_path}.pdf/preflight-results".format(file_path=quote(str(file_path), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | PreflightResult | Problem | None:
    if response.status_code == 200:
        response_200 = PreflightResult.from_dict(response.json())



        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if 400 <= response.status_code <= 499:
        response_4xx = Problem.from_dict(response.json())



        return response_4xx

    if 500 <= response.status_code <= 599:
        response_5xx = Problem.from_dict(response.json())



        return response_5xx

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | PreflightResult | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    profile: GetPreflightResultProfile,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | PreflightResult | Problem]:
    """ Check the document against a PDF/A, PDF/UA or PDF/X profile

     `profile` is one of pdfa1a, pdfa1b, pdfa2a, pdfa2b, pdfa2u, pdfa3a, pdfa3b, pdfa3u, pdfa4, pdfa4e,
    pdfa4f, pdfua1, pdfua2, wtpdf1a, pdfx1a2001, pdfx1a2003, pdfx32002, pdfx32003, pdfx4 (400
    VALIDATION_FAILED listing them for another). PDF/A and accessibility profiles (pdfua1, pdfua2,
    wtpdf1a) are validated by veraPDF (503 COMPONENT_MISSING without Java or the veraPDF helper). The
    result names every failed rule with its clause, test number, how often it failed and the first
    places. An encrypted document needs its password (403 without), and is reported as failing PDF/A's
    ban on encryption with the rest of its content checked; a file the validator cannot read is a non-
    compliant result saying why. Accessibility profiles add `accessibility`: for pdfua1 the failures
    grouped by Matterhorn Protocol checkpoint, and for all three the failure conditions only a person
    can check (docs/accessibility.md). Cached per document version, password and profile. See
    docs/pdfa.md.

    Args:
        file_path (str):
        profile (GetPreflightResultProfile):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | PreflightResult | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
profile=profile,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    profile: GetPreflightResultProfile,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | PreflightResult | Problem | None:
    """ Check the document against a PDF/A, PDF/UA or PDF/X profile

     `profile` is one of pdfa1a, pdfa1b, pdfa2a, pdfa2b, pdfa2u, pdfa3a, pdfa3b, pdfa3u, pdfa4, pdfa4e,
    pdfa4f, pdfua1, pdfua2, wtpdf1a, pdfx1a2001, pdfx1a2003, pdfx32002, pdfx32003, pdfx4 (400
    VALIDATION_FAILED listing them for another). PDF/A and accessibility profiles (pdfua1, pdfua2,
    wtpdf1a) are validated by veraPDF (503 COMPONENT_MISSING without Java or the veraPDF helper). The
    result names every failed rule with its clause, test number, how often it failed and the first
    places. An encrypted document needs its password (403 without), and is reported as failing PDF/A's
    ban on encryption with the rest of its content checked; a file the validator cannot read is a non-
    compliant result saying why. Accessibility profiles add `accessibility`: for pdfua1 the failures
    grouped by Matterhorn Protocol checkpoint, and for all three the failure conditions only a person
    can check (docs/accessibility.md). Cached per document version, password and profile. See
    docs/pdfa.md.

    Args:
        file_path (str):
        profile (GetPreflightResultProfile):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | PreflightResult | Problem
     """


    return sync_detailed(
        file_path=file_path,
client=client,
profile=profile,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    profile: GetPreflightResultProfile,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | PreflightResult | Problem]:
    """ Check the document against a PDF/A, PDF/UA or PDF/X profile

     `profile` is one of pdfa1a, pdfa1b, pdfa2a, pdfa2b, pdfa2u, pdfa3a, pdfa3b, pdfa3u, pdfa4, pdfa4e,
    pdfa4f, pdfua1, pdfua2, wtpdf1a, pdfx1a2001, pdfx1a2003, pdfx32002, pdfx32003, pdfx4 (400
    VALIDATION_FAILED listing them for another). PDF/A and accessibility profiles (pdfua1, pdfua2,
    wtpdf1a) are validated by veraPDF (503 COMPONENT_MISSING without Java or the veraPDF helper). The
    result names every failed rule with its clause, test number, how often it failed and the first
    places. An encrypted document needs its password (403 without), and is reported as failing PDF/A's
    ban on encryption with the rest of its content checked; a file the validator cannot read is a non-
    compliant result saying why. Accessibility profiles add `accessibility`: for pdfua1 the failures
    grouped by Matterhorn Protocol checkpoint, and for all three the failure conditions only a person
    can check (docs/accessibility.md). Cached per document version, password and profile. See
    docs/pdfa.md.

    Args:
        file_path (str):
        profile (GetPreflightResultProfile):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | PreflightResult | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
profile=profile,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    profile: GetPreflightResultProfile,
    version_id: str | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | PreflightResult | Problem | None:
    """ Check the document against a PDF/A, PDF/UA or PDF/X profile

     `profile` is one of pdfa1a, pdfa1b, pdfa2a, pdfa2b, pdfa2u, pdfa3a, pdfa3b, pdfa3u, pdfa4, pdfa4e,
    pdfa4f, pdfua1, pdfua2, wtpdf1a, pdfx1a2001, pdfx1a2003, pdfx32002, pdfx32003, pdfx4 (400
    VALIDATION_FAILED listing them for another). PDF/A and accessibility profiles (pdfua1, pdfua2,
    wtpdf1a) are validated by veraPDF (503 COMPONENT_MISSING without Java or the veraPDF helper). The
    result names every failed rule with its clause, test number, how often it failed and the first
    places. An encrypted document needs its password (403 without), and is reported as failing PDF/A's
    ban on encryption with the rest of its content checked; a file the validator cannot read is a non-
    compliant result saying why. Accessibility profiles add `accessibility`: for pdfua1 the failures
    grouped by Matterhorn Protocol checkpoint, and for all three the failure conditions only a person
    can check (docs/accessibility.md). Cached per document version, password and profile. See
    docs/pdfa.md.

    Args:
        file_path (str):
        profile (GetPreflightResultProfile):
        version_id (str | Unset):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | PreflightResult | Problem
     """


    return (await asyncio_detailed(
        file_path=file_path,
client=client,
profile=profile,
version_id=version_id,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
if_none_match=if_none_match,

    )).parsed
