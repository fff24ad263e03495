from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ActionStepLinearizeAction")



@_attrs_define
class ActionStepLinearizeAction:
    """ Writes the document linearized ("fast web view", ISO 32000-1 Annex F) with qpdf; content, object streams and
    encryption are kept (an encrypted document needs its password, and a user password only when its permissions allow
    changes). A signed document is refused (409 DOCUMENT_SIGNED). The answer's report gives the sizes before and after.
    See docs/optimize.md.

     """






    def to_dict(self) -> dict[str, Any]:
        
        field_dict: dict[str, Any] = {}


        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        action_step_linearize_action = cls(
        )

        return action_step_linearize_action

