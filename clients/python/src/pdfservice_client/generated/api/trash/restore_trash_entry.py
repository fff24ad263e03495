from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.document_model import DocumentModel
from ...models.folder_model import FolderModel
from ...models.problem import Problem
from ...models.restore_trash_entry_json_trash_restore import RestoreTrashEntryJsonTrashRestore
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: None | RestoreTrashEntryJsonTrashRestore | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/pdfservice/v1/trash/{id}/restore".format(id=quote(str(id), safe=""),),
    }

    
    if isinstance(body, RestoreTrashEntryJsonTrashRestore):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DocumentModel | FolderModel | Problem | None:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> DocumentModel | FolderModel:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = DocumentModel.from_dict(data)



                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_200_type_1 = FolderModel.from_dict(data)



            return response_200_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DocumentModel | FolderModel | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: None | RestoreTrashEntryJsonTrashRestore | Unset = UNSET,

) -> Response[DocumentModel | FolderModel | Problem]:
    """ Restore a trash entry, with its versions

     Puts the document or folder back at its original path, or at savePath; 409 TRASH_PATH_TAKEN when a
    document or folder is there now. Needs the POST right and the PUT right (it writes the destination).
    Answers the restored document's DocumentModel, or the restored folder's listing. Another user's
    entry is 404 TRASH_ENTRY_NOT_FOUND (admins may restore any).

    Args:
        id (str):
        body (None | RestoreTrashEntryJsonTrashRestore | Unset): Where to restore an entry; empty
            (or no body): its original path

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentModel | FolderModel | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: None | RestoreTrashEntryJsonTrashRestore | Unset = UNSET,

) -> DocumentModel | FolderModel | Problem | None:
    """ Restore a trash entry, with its versions

     Puts the document or folder back at its original path, or at savePath; 409 TRASH_PATH_TAKEN when a
    document or folder is there now. Needs the POST right and the PUT right (it writes the destination).
    Answers the restored document's DocumentModel, or the restored folder's listing. Another user's
    entry is 404 TRASH_ENTRY_NOT_FOUND (admins may restore any).

    Args:
        id (str):
        body (None | RestoreTrashEntryJsonTrashRestore | Unset): Where to restore an entry; empty
            (or no body): its original path

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentModel | FolderModel | Problem
     """


    return sync_detailed(
        id=id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: None | RestoreTrashEntryJsonTrashRestore | Unset = UNSET,

) -> Response[DocumentModel | FolderModel | Problem]:
    """ Restore a trash entry, with its versions

     Puts the document or folder back at its original path, or at savePath; 409 TRASH_PATH_TAKEN when a
    document or folder is there now. Needs the POST right and the PUT right (it writes the destination).
    Answers the restored document's DocumentModel, or the restored folder's listing. Another user's
    entry is 404 TRASH_ENTRY_NOT_FOUND (admins may restore any).

    Args:
        id (str):
        body (None | RestoreTrashEntryJsonTrashRestore | Unset): Where to restore an entry; empty
            (or no body): its original path

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentModel | FolderModel | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: None | RestoreTrashEntryJsonTrashRestore | Unset = UNSET,

) -> DocumentModel | FolderModel | Problem | None:
    """ Restore a trash entry, with its versions

     Puts the document or folder back at its original path, or at savePath; 409 TRASH_PATH_TAKEN when a
    document or folder is there now. Needs the POST right and the PUT right (it writes the destination).
    Answers the restored document's DocumentModel, or the restored folder's listing. Another user's
    entry is 404 TRASH_ENTRY_NOT_FOUND (admins may restore any).

    Args:
        id (str):
        body (None | RestoreTrashEntryJsonTrashRestore | Unset): Where to restore an entry; empty
            (or no body): its original path

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentModel | FolderModel | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
