"""What the sealed deal's checks raise: a :class:`Fault` names the kind of cheat and, when it can, its author."""

from __future__ import annotations

from ..errors import NetError


class Fault(NetError, ValueError):
    """A check of the sealed deal failed.

    ``code`` names the kind of fault (the table shows it; tests match it):

    * ``key``: a round key without a valid proof of knowledge, or a malformed one;
    * ``point``: a value that is not of the group (a bad encoding, a value of small order, a
      torsion mark where a scheme checks for one);
    * ``pass``: a shuffle pass of the wrong shape, by the wrong participant, holding one card
      twice, or (ElGamal) whose proof that it only re-encrypts the deck's sum fails;
    * ``share``: a wrong decryption share (a slot key against its commitment; ElGamal: a share
      whose Chaum-Pedersen proof fails);
    * ``envelope``: shares sent privately that are not signed by their sender, not meant for
      this recipient or epoch, or that do not open;
    * ``card``: a slot whose proven shares open to no card of the epoch (some pass was bad:
      every participant opens its round secret at once, and the audit names it);
    * ``substitution``: the audit found a pass whose output is not its input's cards, reordered;
    * ``withheld``: a participant did not open its round secret at the end of the round;
    * ``reveal``: an opened round secret that does not match the key announced with it, or a share of
      the round's public orders that does not open the commitment announced with it;
    * ``protocol``: anything else malformed.

    ``culprit`` is the participant named (``None`` when the check cannot tell who).
    """

    def __init__(self, code: str, reason: str, culprit: int | None = None) -> None:
        who = "" if culprit is None else f" (participant {culprit})"
        super().__init__(code, reason, message=f"{code}: {reason}{who}")
        self.culprit = culprit
