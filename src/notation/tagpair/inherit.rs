//! Tag value inheritance, in input order, for the records of any notation
//! of the tag-pair family (a [`TagRecords`] group of them).
//!
//! As in PBN 2.1 section 4.8: a value of exactly `#` takes the value of the
//! same tag in the previous hand (itself already resolved); a value beginning
//! `##` is the text after `##`, and is also used for every later hand of the
//! file that does not declare the tag; a later plain declaration of such a tag
//! replaces the carried value from then on. Note and Chat tags, segmental tags,
//! and records that were quarantined take no part. A `#` with nothing to take
//! from is dropped with a warning (PBN would use ""; we do not invent a value).

use rustc_hash::{FxHashMap, FxHashSet};

use std::ops::Range;

use super::lex::{Dialect, Lexed, Lists, Tag, TagState};
use crate::error::Diag;

/// A group of lexed records, as the inheritance pass reads and amends them.
pub trait TagRecords<'a> {
    fn lists(&self) -> &Lists<'a>;
    fn lists_mut(&mut self) -> &mut Lists<'a>;
    /// The records of the group.
    fn records(&self) -> usize;
    fn lexed(&self, i: usize) -> &Lexed;
    /// The header block of record `i` (a new file header starts a new one).
    fn block(&self, i: usize) -> u32;
    /// The tags added to record `i` by `##`, in the group's tag list.
    fn extra(&self, i: usize) -> Range<u32>;
    fn set_extra(&mut self, i: usize, tags: Range<u32>);
    /// A diagnostic of record `i` found by the inheritance pass.
    fn push_late(&mut self, i: usize, d: Diag);
    /// The values of the dialect's `before` tags in the record before the
    /// group's first.
    fn set_before(&mut self, values: &[Option<&'a [u8]>]);
}

/// A hand's first this many `#` tags are found by a scan of the hand before,
/// the rest through a map of it; up to this many carried `##` values are
/// scanned, more through a map (a hand of thousands of `#` or `##` tags made
/// a scan a tag take minutes).
const SCAN_MAX: usize = 32;

/// A tag of a [`Resolver`] that owns its name and value.
struct SavedTag {
    name: Vec<u8>,
    value: Vec<u8>,
    at: u32,
    value_at: u32,
    escaped: bool,
    latin1: bool,
    state: TagState,
}

impl SavedTag {
    fn new(t: &Tag<'_>) -> Self {
        SavedTag {
            name: t.name.to_vec(),
            value: t.value.to_vec(),
            at: t.at,
            value_at: t.value_at,
            escaped: t.escaped,
            latin1: t.latin1,
            state: t.state,
        }
    }

    fn tag(&self) -> Tag<'_> {
        // Only tags without a segment and without their own section tokens
        // are carried (see `takes_part` and `resolve_hand`).
        Tag {
            name: &self.name,
            value: &self.value,
            at: self.at,
            value_at: self.value_at,
            escaped: self.escaped,
            latin1: self.latin1,
            segment: None,
            tokens: Default::default(),
            state: self.state,
        }
    }
}

/// A [`Resolver`] that owns its bytes.
#[derive(Default)]
pub struct Saved {
    sticky: Vec<SavedTag>,
    carried: Vec<SavedTag>,
    block: u32,
    seen: bool,
}

#[derive(Default)]
pub struct Resolver<'a> {
    /// Values set with `##`, in the order their names first came.
    sticky: Vec<Tag<'a>>,
    /// The place of each name in `sticky`.
    sticky_at: FxHashMap<&'a [u8], usize>,
    /// Final tags of the last hand resolved before the current call.
    carried: Vec<Tag<'a>>,
    /// The header block (`Ctx::block`) of the hands seen last: a hand of
    /// another block inherits nothing from them.
    block: u32,
    /// A record of this block was resolved before the current call (its
    /// tags that take part, if any, are `carried`).
    seen: bool,
}

fn takes_part(d: &Dialect, t: &Tag<'_>) -> bool {
    t.segment.is_none() && !(d.repeatable)(t.name) && t.state != TagState::Unresolved
}

fn final_tags<'g, 'a, G: TagRecords<'a>>(
    d: &'g Dialect,
    g: &'g G,
    hi: usize,
) -> impl Iterator<Item = &'g Tag<'a>> + 'g
where
    'a: 'g,
{
    let r = |r: Range<u32>| r.start as usize..r.end as usize;
    r(g.lexed(hi).tags.clone())
        .chain(r(g.extra(hi)))
        .map(move |i| &g.lists().tags[i])
        .filter(move |t| takes_part(d, t))
}

impl<'a> Resolver<'a> {
    pub fn save(&self) -> Saved {
        Saved {
            sticky: self.sticky.iter().map(SavedTag::new).collect(),
            carried: self.carried.iter().map(SavedTag::new).collect(),
            block: self.block,
            seen: self.seen,
        }
    }

    pub fn restore(saved: &'a Saved) -> Self {
        let sticky: Vec<Tag<'a>> = saved.sticky.iter().map(SavedTag::tag).collect();
        let sticky_at = sticky
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name, i))
            .collect();
        Resolver {
            sticky,
            sticky_at,
            carried: saved.carried.iter().map(SavedTag::tag).collect(),
            block: saved.block,
            seen: saved.seen,
        }
    }

    /// Resolves every record of `groups`, which follow the records seen
    /// before, as dialect `d` says.
    pub fn resolve<G: TagRecords<'a>>(&mut self, d: &Dialect, groups: &mut [G]) {
        let mut prev: Option<(usize, usize)> = None;
        for gi in 0..groups.len() {
            if groups[gi].records() > 0 {
                self.enter(groups[gi].block(0), &mut prev);
            }
            if prev.is_some() || self.seen {
                let values: smallvec::SmallVec<[Option<&'a [u8]>; 4]> = d
                    .before
                    .iter()
                    .map(|name| self.lookup(d, groups, prev, name).map(|t| t.value))
                    .collect();
                groups[gi].set_before(&values);
            }
            for hi in 0..groups[gi].records() {
                self.enter(groups[gi].block(hi), &mut prev);
                let lexed = groups[gi].lexed(hi);
                if lexed.error.is_some() || lexed.tags.is_empty() {
                    continue;
                }
                if lexed.has_hash || !self.sticky.is_empty() {
                    self.resolve_hand(d, groups, gi, hi, prev);
                }
                if !d.together.is_empty() && (prev.is_some() || self.seen) {
                    self.take_together(d, groups, gi, hi, prev);
                }
                prev = Some((gi, hi));
            }
        }
        if let Some((gi, hi)) = prev {
            self.seen = true;
            // The first tag of each name is all a lookup finds: a hand of
            // millions of tags of one name carries one (carrying them all
            // held 1.2 GB more for 6.3 million `[Foo "1"]`).
            let mut seen = FxHashSet::default();
            self.carried = final_tags(d, &groups[gi], hi)
                .filter(|t| seen.insert(t.name))
                .copied()
                .collect();
        }
    }

    /// Starts anew at a hand of header block `block` when the hands before
    /// were of another: a new header (files joined into one) begins another
    /// file, whose hands take nothing from the hands before it.
    fn enter(&mut self, block: u32, prev: &mut Option<(usize, usize)>) {
        if block != self.block {
            self.block = block;
            self.sticky.clear();
            self.sticky_at.clear();
            self.carried.clear();
            self.seen = false;
            *prev = None;
        }
    }

    /// The first tag named `name` of the hand before (`prev`, or the tags
    /// carried from the groups resolved before).
    fn lookup<G: TagRecords<'a>>(
        &self,
        d: &Dialect,
        groups: &[G],
        prev: Option<(usize, usize)>,
        name: &[u8],
    ) -> Option<Tag<'a>> {
        match prev {
            Some((gi, hi)) => final_tags(d, &groups[gi], hi)
                .find(|t| t.name == name)
                .copied(),
            None => self.carried.iter().find(|t| t.name == name).copied(),
        }
    }

    /// The first tag of each name of the hand before, for [`Self::lookup`]
    /// done many times.
    fn lookup_map<G: TagRecords<'a>>(
        &self,
        d: &Dialect,
        groups: &[G],
        prev: Option<(usize, usize)>,
    ) -> FxHashMap<&'a [u8], Tag<'a>> {
        let mut map = FxHashMap::default();
        let mut add = |t: &Tag<'a>| {
            map.entry(t.name).or_insert(*t);
        };
        match prev {
            Some((gi, hi)) => final_tags(d, &groups[gi], hi).for_each(add),
            None => self.carried.iter().for_each(&mut add),
        }
        map
    }

    fn resolve_hand<G: TagRecords<'a>>(
        &mut self,
        d: &Dialect,
        groups: &mut [G],
        gi: usize,
        hi: usize,
        prev: Option<(usize, usize)>,
    ) {
        let tags = groups[gi].lexed(hi).tags.clone();
        let mut declared: Vec<&'a [u8]> = Vec::new();
        // The first SCAN_MAX `#` are found by a scan of the hand before,
        // the rest through a map of it.
        let (mut scans, mut map) = (0, None);
        for ti in tags.start as usize..tags.end as usize {
            let t = groups[gi].lists().tags[ti];
            if !takes_part(d, &t) {
                continue;
            }
            declared.push(t.name);
            if t.value == b"#" {
                let found = if scans < SCAN_MAX {
                    scans += 1;
                    self.lookup(d, groups, prev, t.name)
                } else {
                    map.get_or_insert_with(|| self.lookup_map(d, groups, prev))
                        .get(t.name)
                        .copied()
                };
                match found {
                    Some(p) => {
                        let slot = &mut groups[gi].lists_mut().tags[ti];
                        slot.value = p.value;
                        slot.escaped = p.escaped;
                        slot.latin1 = p.latin1;
                        slot.state = TagState::Inherited;
                    }
                    None => {
                        groups[gi].lists_mut().tags[ti].state = TagState::Unresolved;
                        groups[gi].push_late(
                            hi,
                            Diag::warning(
                                t.value_at as usize,
                                d.codes.nothing_to_inherit,
                                // The hand before is `prev`, or the last one
                                // of the groups before (whose tags are carried).
                                if prev.is_some() || self.seen {
                                    format!(
                                        "tag {0} is \"#\" but the hand before has no {0} tag; its value is null",
                                        String::from_utf8_lossy(t.name)
                                    )
                                } else {
                                    format!(
                                        "tag {} is \"#\" but no hand of this file comes before it (quarantined records take no part); its value is null",
                                        String::from_utf8_lossy(t.name)
                                    )
                                },
                            ),
                        );
                    }
                }
            } else if let Some(rest) = t.value.strip_prefix(b"##") {
                let slot = &mut groups[gi].lists_mut().tags[ti];
                slot.value = rest;
                slot.value_at += 2;
                let tag = *slot;
                self.set_sticky(tag);
            } else if self.is_sticky(t.name) {
                self.set_sticky(t);
            }
        }
        let g = &mut groups[gi];
        let start = g.lists().tags.len() as u32;
        let declared_set: Option<FxHashSet<&[u8]>> = (self.sticky.len() > SCAN_MAX
            && declared.len() > SCAN_MAX)
            .then(|| declared.iter().copied().collect());
        let is_declared = |name: &[u8]| match &declared_set {
            Some(set) => set.contains(name),
            None => declared.contains(&name),
        };
        for s in &self.sticky {
            if !is_declared(s.name) {
                let mut t = *s;
                t.state = TagState::Inherited;
                t.tokens = Default::default();
                g.lists_mut().tags.push(t);
            }
        }
        let end = g.lists().tags.len() as u32;
        g.set_extra(hi, start..end);
    }

    /// Gives record `hi` of group `gi` the dialect's `together` tags of the
    /// record before when it has none of them and one of the `together_if`
    /// tags, with an info saying so.
    fn take_together<G: TagRecords<'a>>(
        &self,
        d: &Dialect,
        groups: &mut [G],
        gi: usize,
        hi: usize,
        prev: Option<(usize, usize)>,
    ) {
        if !final_tags(d, &groups[gi], hi).any(|t| d.together_if.contains(&t.name))
            || final_tags(d, &groups[gi], hi).any(|t| d.together.contains(&t.name))
        {
            return;
        }
        let found: Vec<Tag<'a>> = (d.together.iter())
            .filter_map(|name| self.lookup(d, groups, prev, name))
            .collect();
        if found.is_empty() {
            return;
        }
        let names: Vec<String> = found
            .iter()
            .map(|t| String::from_utf8_lossy(t.name).into_owned())
            .collect();
        let g = &mut groups[gi];
        let extra = g.extra(hi);
        let start = if extra.is_empty() {
            g.lists().tags.len() as u32
        } else {
            extra.start
        };
        // The record's extra tags are the last of the list (its `##` ones
        // were pushed just before), so these follow them.
        for mut t in found {
            t.state = TagState::Inherited;
            t.tokens = Default::default();
            g.lists_mut().tags.push(t);
        }
        let end = g.lists().tags.len() as u32;
        g.set_extra(hi, start..end);
        g.push_late(
            hi,
            Diag {
                severity: crate::error::Severity::Info,
                code: d.codes.took_together,
                at: 0,
                message: format!(
                    "{} not given: taken from the {1} before (the same board played again), as every {1} that gives none of them",
                    names.join(", "),
                    d.record_word
                ),
            },
        );
    }

    fn is_sticky(&self, name: &[u8]) -> bool {
        if self.sticky.len() <= SCAN_MAX {
            self.sticky.iter().any(|s| s.name == name)
        } else {
            self.sticky_at.contains_key(name)
        }
    }

    fn set_sticky(&mut self, t: Tag<'a>) {
        match self.sticky_at.get(t.name) {
            Some(&i) => self.sticky[i] = t,
            None => {
                self.sticky_at.insert(t.name, self.sticky.len());
                self.sticky.push(t);
            }
        }
    }
}
