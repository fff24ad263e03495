from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..types import File, FileTypes
from io import BytesIO
from typing import cast

if TYPE_CHECKING:
  from ..models.sign_request import SignRequest





T = TypeVar("T", bound="SignFieldBody")



@_attrs_define
class SignFieldBody:
    """ 
        Attributes:
            signature (SignRequest): The `signature` part of a signing request
            file (File): The PKCS#12 key store (.p12, .pfx)
     """

    signature: SignRequest
    file: File
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.sign_request import SignRequest # noqa: PLC0415
        signature = self.signature.to_dict()

        file = self.file.to_tuple()



        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "signature": signature,
            "file": file,
        })

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        from ..models.sign_request import SignRequest # noqa: PLC0415
        files: types.RequestFiles = []

        files.append(("signature", (None, json.dumps( self.signature.to_dict()).encode(), "application/json")))



        files.append(("file", self.file.to_tuple()))




        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))



        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sign_request import SignRequest # noqa: PLC0415
        d = dict(src_dict)
        signature = SignRequest.from_dict(d.pop("signature"))




        file = File(
             payload = BytesIO(d.pop("file"))
        )




        sign_field_body = cls(
            signature=signature,
            file=file,
        )


        sign_field_body.additional_properties = d
        return sign_field_body

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
