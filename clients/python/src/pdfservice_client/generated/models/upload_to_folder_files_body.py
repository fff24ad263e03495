from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..types import File, FileTypes
from ..types import UNSET, Unset
from io import BytesIO
from typing import cast






T = TypeVar("T", bound="UploadToFolderFilesBody")



@_attrs_define
class UploadToFolderFilesBody:
    """ 
        Attributes:
            file (File): The PDF, image, Office document or HTML page, with its file name
            asset (list[File] | Unset): Files an HTML page refers to by their file names (style sheets, images, fonts;
                header.html and footer.html are the header and footer templates): with them the upload is a bundle (docs/api.md,
                "Bundles"; docs/html.md)
     """

    file: File
    asset: list[File] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        file = self.file.to_tuple()


        asset: list[FileTypes] | Unset = UNSET
        if not isinstance(self.asset, Unset):
            asset = []
            for asset_item_data in self.asset:
                asset_item = asset_item_data.to_tuple()

                asset.append(asset_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "file": file,
        })
        if asset is not UNSET:
            field_dict["asset"] = asset

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))



        if not isinstance(self.asset, Unset):
            for asset_item_element in self.asset:
                files.append(("asset", asset_item_element.to_tuple()))





        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))



        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        file = File(
             payload = BytesIO(d.pop("file"))
        )




        _asset = d.pop("asset", UNSET)
        asset: list[File] | Unset = UNSET
        if _asset is not UNSET:
            asset = []
            for asset_item_data in _asset:
                asset_item = File(
                     payload = BytesIO(asset_item_data)
                )



                asset.append(asset_item)


        upload_to_folder_files_body = cls(
            file=file,
            asset=asset,
        )


        upload_to_folder_files_body.additional_properties = d
        return upload_to_folder_files_body

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
