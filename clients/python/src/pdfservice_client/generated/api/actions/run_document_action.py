from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.document_model import DocumentModel
from ...models.job import Job
from ...models.problem import Problem
from ...models.run_document_action_files_body import RunDocumentActionFilesBody
from ...models.run_document_action_json_body import RunDocumentActionJsonBody
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    file_path: str,
    *,
    body:    RunDocumentActionJsonBody  |     RunDocumentActionFilesBody  | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_service_documentpassword, Unset):
        headers["x-service-documentpassword"] = x_service_documentpassword

    if not isinstance(x_service_documentpassword_base64, Unset):
        headers["x-service-documentpassword-base64"] = x_service_documentpassword_base64

    if not isinstance(prefer, Unset):
        headers["prefer"] = prefer

    if not isinstance(x_service_webhook_url, Unset):
        headers["x-service-webhook-url"] = x_service_webhook_url

    if not isinstance(if_match, Unset):
        headers["if-match"] = if_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/pdfservice/v1/documents/{file_path}.pdf".format(file_path=quote(str(file_path), safe=""),),
    }

    if isinstance(body, RunDocumentActionJsonBody):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, RunDocumentActionFilesBody):
        _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DocumentModel | Job | Problem | None:
    if response.status_code == 200:
        response_200 = DocumentModel.from_dict(response.json())



        return response_200

    if response.status_code == 201:
        response_201 = DocumentModel.from_dict(response.json())



        return response_201

    if response.status_code == 202:
        response_202 = Job.from_dict(response.json())



        return response_202

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DocumentModel | Job | Problem]:
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
    body:    RunDocumentActionJsonBody  |     RunDocumentActionFilesBody  | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[DocumentModel | Job | Problem]:
    """ Run a document action

     The body is an object with exactly one key, the action name, whose value holds its parameters; or
    multipart/form-data with that JSON in a part named "pageAction" and files in other parts. As XML,
    the root element is the action name. Writing actions replace the document unless savePath is given;
    namingMode decides clashes at savePath. Known actions: CopyAction, MoveAction,
    ApplyRedactionsAction, FlattenFieldsAction, FlattenAnnotationsAction, PDFAConvertAction,
    PDFUAConvertAction, FacturXAction, LinearizeAction, OptimizeAction, PipelineAction,
    MergeDocumentsAction, SanitizeAction.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_match (str | Unset):
        body (RunDocumentActionJsonBody):
        body (RunDocumentActionFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentModel | Job | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_match=if_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    body:    RunDocumentActionJsonBody  |     RunDocumentActionFilesBody  | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> DocumentModel | Job | Problem | None:
    """ Run a document action

     The body is an object with exactly one key, the action name, whose value holds its parameters; or
    multipart/form-data with that JSON in a part named "pageAction" and files in other parts. As XML,
    the root element is the action name. Writing actions replace the document unless savePath is given;
    namingMode decides clashes at savePath. Known actions: CopyAction, MoveAction,
    ApplyRedactionsAction, FlattenFieldsAction, FlattenAnnotationsAction, PDFAConvertAction,
    PDFUAConvertAction, FacturXAction, LinearizeAction, OptimizeAction, PipelineAction,
    MergeDocumentsAction, SanitizeAction.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_match (str | Unset):
        body (RunDocumentActionJsonBody):
        body (RunDocumentActionFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentModel | Job | Problem
     """


    return sync_detailed(
        file_path=file_path,
client=client,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_match=if_match,

    ).parsed

async def asyncio_detailed(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    body:    RunDocumentActionJsonBody  |     RunDocumentActionFilesBody  | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> Response[DocumentModel | Job | Problem]:
    """ Run a document action

     The body is an object with exactly one key, the action name, whose value holds its parameters; or
    multipart/form-data with that JSON in a part named "pageAction" and files in other parts. As XML,
    the root element is the action name. Writing actions replace the document unless savePath is given;
    namingMode decides clashes at savePath. Known actions: CopyAction, MoveAction,
    ApplyRedactionsAction, FlattenFieldsAction, FlattenAnnotationsAction, PDFAConvertAction,
    PDFUAConvertAction, FacturXAction, LinearizeAction, OptimizeAction, PipelineAction,
    MergeDocumentsAction, SanitizeAction.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_match (str | Unset):
        body (RunDocumentActionJsonBody):
        body (RunDocumentActionFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentModel | Job | Problem]
     """


    kwargs = _get_kwargs(
        file_path=file_path,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_match=if_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    file_path: str,
    *,
    client: AuthenticatedClient | Client,
    body:    RunDocumentActionJsonBody  |     RunDocumentActionFilesBody  | Unset = UNSET,
    x_service_documentpassword: str | Unset = UNSET,
    x_service_documentpassword_base64: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_service_webhook_url: str | Unset = UNSET,
    if_match: str | Unset = UNSET,

) -> DocumentModel | Job | Problem | None:
    """ Run a document action

     The body is an object with exactly one key, the action name, whose value holds its parameters; or
    multipart/form-data with that JSON in a part named "pageAction" and files in other parts. As XML,
    the root element is the action name. Writing actions replace the document unless savePath is given;
    namingMode decides clashes at savePath. Known actions: CopyAction, MoveAction,
    ApplyRedactionsAction, FlattenFieldsAction, FlattenAnnotationsAction, PDFAConvertAction,
    PDFUAConvertAction, FacturXAction, LinearizeAction, OptimizeAction, PipelineAction,
    MergeDocumentsAction, SanitizeAction.

    Args:
        file_path (str):
        x_service_documentpassword (str | Unset):
        x_service_documentpassword_base64 (str | Unset):
        prefer (str | Unset):
        x_service_webhook_url (str | Unset):
        if_match (str | Unset):
        body (RunDocumentActionJsonBody):
        body (RunDocumentActionFilesBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentModel | Job | Problem
     """


    return (await asyncio_detailed(
        file_path=file_path,
client=client,
body=body,
x_service_documentpassword=x_service_documentpassword,
x_service_documentpassword_base64=x_service_documentpassword_base64,
prefer=prefer,
x_service_webhook_url=x_service_webhook_url,
if_match=if_match,

    )).parsed
