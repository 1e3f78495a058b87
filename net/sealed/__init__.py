"""The sealed deal: mental poker for UNO, so no peer (the host included) sees a card before the rules show it.

Pure functions and classes, no I/O: the net layer moves the bytes, the
engine decides what to open to whom. The design, its threat model and its
figures are in ``docs/sealed-design.md``.

* :mod:`.group`: the prime-order subgroup of Ed25519 through libsodium, and
  exactly what libsodium does and does not check;
* :mod:`.proofs`: Schnorr proofs of a key, Chaum-Pedersen proofs of equal logs;
* :mod:`.xline`: the masking scheme's values as Curve25519 u-coordinates,
  multiplied with X25519 (four times libsodium's checked Ed25519 multiplication);
* :mod:`.codec`: cards as values of the group, and a value that is no card caught;
* :mod:`.masking`: the chosen scheme, commutative (SRA-style) masking with a
  key per slot: re-key, mask and lock passes;
* :mod:`.keys`: a participant's round secret (one seed, saved before use:
  every key and pass derives from it) and the table's round keys;
* :mod:`.epoch`: one epoch as everybody sees it, and public openings;
* :mod:`.envelope`: shares for one player, signed and sealed to it;
* :mod:`.participant`: one participant's private side of a round;
* :mod:`.audit`: the round-end opening of secrets and the audit naming a cheat;
* :mod:`.elgamal`: the scheme measured and not chosen (ElGamal under a joint
  key, Barnett-Smart style), built whole.
"""

from .audit import AuditResult, audit_round
from .codec import CardCodec, NotACard
from .envelope import Envelope, verify_accusation
from .epoch import Epoch, open_public
from .faults import Fault
from .group import BadPoint, BadScalar
from .keys import KeyAnnouncement, Reveal, RoundKeys, RoundSecret
from .masking import Pass
from .participant import Participant

__all__ = ["AuditResult", "BadPoint", "BadScalar", "CardCodec", "Envelope", "Epoch", "Fault",
           "KeyAnnouncement", "NotACard", "Participant", "Pass", "Reveal", "RoundKeys", "RoundSecret",
           "audit_round", "open_public", "verify_accusation"]
