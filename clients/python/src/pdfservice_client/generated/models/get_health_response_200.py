from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.get_health_response_200_status import GetHealthResponse200Status
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.get_health_response_200_engine import GetHealthResponse200Engine
  from ..models.get_health_response_200_tools_item import GetHealthResponse200ToolsItem





T = TypeVar("T", bound="GetHealthResponse200")



@_attrs_define
class GetHealthResponse200:
    """ 
        Attributes:
            status (GetHealthResponse200Status | Unset):
            engine (GetHealthResponse200Engine | Unset): The engine workers now, and counts of engine tasks since the
                service started
            tools (list[GetHealthResponse200ToolsItem] | Unset): The external programs the service runs (LibreOffice for
                Word uploads), each checked once, on its first use or the first health request (which waits for the checks); a
                feature whose tool is not available answers 503 COMPONENT_MISSING
     """

    status: GetHealthResponse200Status | Unset = UNSET
    engine: GetHealthResponse200Engine | Unset = UNSET
    tools: list[GetHealthResponse200ToolsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.get_health_response_200_engine import GetHealthResponse200Engine # noqa: PLC0415
        from ..models.get_health_response_200_tools_item import GetHealthResponse200ToolsItem # noqa: PLC0415
        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value


        engine: dict[str, Any] | Unset = UNSET
        if not isinstance(self.engine, Unset):
            engine = self.engine.to_dict()

        tools: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tools, Unset):
            tools = []
            for tools_item_data in self.tools:
                tools_item = tools_item_data.to_dict()
                tools.append(tools_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if status is not UNSET:
            field_dict["status"] = status
        if engine is not UNSET:
            field_dict["engine"] = engine
        if tools is not UNSET:
            field_dict["tools"] = tools

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_health_response_200_engine import GetHealthResponse200Engine # noqa: PLC0415
        from ..models.get_health_response_200_tools_item import GetHealthResponse200ToolsItem # noqa: PLC0415
        d = dict(src_dict)
        _status = d.pop("status", UNSET)
        status: GetHealthResponse200Status | Unset
        if isinstance(_status,  Unset):
            status = UNSET
        else:
            status = GetHealthResponse200Status(_status)




        _engine = d.pop("engine", UNSET)
        engine: GetHealthResponse200Engine | Unset
        if isinstance(_engine,  Unset):
            engine = UNSET
        else:
            engine = GetHealthResponse200Engine.from_dict(_engine)




        _tools = d.pop("tools", UNSET)
        tools: list[GetHealthResponse200ToolsItem] | Unset = UNSET
        if _tools is not UNSET:
            tools = []
            for tools_item_data in _tools:
                tools_item = GetHealthResponse200ToolsItem.from_dict(tools_item_data)



                tools.append(tools_item)


        get_health_response_200 = cls(
            status=status,
            engine=engine,
            tools=tools,
        )


        get_health_response_200.additional_properties = d
        return get_health_response_200

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
