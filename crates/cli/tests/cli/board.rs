use crate::util::*;
