//! The frames a step shows, kept and computed ahead: the last few are kept, and after a frame is
//! shown the page computes its neighbours', so that the next step (a clicker's, a key's) costs
//! only its DOM update.

use lockstep_render::RenderError;

use super::{Picture, StepFrame, Viewer};

impl Viewer {
    /// What the current step shows on top of `picture` (drawn for this branch and mode): a
    /// frame kept from before or computed ahead by [`Viewer::prefetch`], if there is one.
    pub fn frame(&self, picture: &Picture) -> Result<StepFrame, RenderError> {
        let n = self.pos();
        if let Some(f) = self.kept(picture, n) {
            return Ok(f);
        }
        let f = self.frame_at(picture, n)?;
        self.keep(picture, f.clone());
        Ok(f)
    }

    /// Computes the frames of the steps next to the current one, so that the next step (a
    /// clicker's, or a key's) finds its frame ready. Meant for idle time, after a frame is shown.
    pub fn prefetch(&self, picture: &Picture) {
        self.prefetch_next(picture, true);
        self.prefetch_next(picture, false);
    }

    /// Computes the frame of the step after the current one (`forward`) or before it, unless
    /// it is kept already; one at a time, so that a key pressed meanwhile waits for one at most.
    pub fn prefetch_next(&self, picture: &Picture, forward: bool) {
        let n = self.pos();
        let m = if forward {
            Some(n + 1)
        } else {
            n.checked_sub(1)
        };
        if let Some(m) = m.filter(|&m| m <= self.total())
            && self.kept(picture, m).is_none()
            && let Ok(f) = self.frame_at(picture, m)
        {
            self.keep(picture, f);
        }
    }

    /// Computes the last step's frame, once per picture, so that End (a presenter's jump to the
    /// outcome) finds it ready: a frame is a layout of the whole run, and on
    /// redlock-delayed-restart (1,405 events) computing it on the key press held End up for
    /// 100 ms or more. Meant for idle time, after the neighbours' frames.
    pub fn prefetch_last(&self, picture: &Picture) {
        let end = self.total();
        if self.kept(picture, end).is_none()
            && let Ok(f) = self.frame_at(picture, end)
        {
            *self.last.borrow_mut() = Some((picture.key, f));
        }
    }

    /// The kept frame of step `n` of `picture`, marked as the most recently used.
    pub(super) fn kept(&self, picture: &Picture, n: usize) -> Option<StepFrame> {
        if let Some((key, f)) = &*self.last.borrow()
            && *key == picture.key
            && f.step == n
        {
            return Some(f.clone());
        }
        let mut ahead = self.ahead.borrow_mut();
        let i = ahead
            .iter()
            .position(|(k, f)| *k == picture.key && f.step == n)?;
        let entry = ahead.remove(i);
        let f = entry.1.clone();
        ahead.push(entry);
        Some(f)
    }

    /// Keeps a frame; only the last few are worth keeping (the current step and its neighbours).
    fn keep(&self, picture: &Picture, f: StepFrame) {
        let mut ahead = self.ahead.borrow_mut();
        if ahead.len() >= 6 {
            ahead.remove(0);
        }
        ahead.push((picture.key, f));
    }
}
