// The axis analysis of a loop whose carried values form a chain longer than
// its 64 rounds (v69 = v68, ..., v1 = v0: a round per link) takes them as
// unknown, which is sound, where it stopped unchecked and, briefly, called
// itself a bug. The emulator's results equal the interpreter's.
// RUN: twintile run --frontend=parse %s --kernel 'delay<16>' --arg o=2000 --arg n=100 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void delay(Ptr<i32> o, i32 n) {
  i32 v0 = 0, v1 = 0, v2 = 0, v3 = 0, v4 = 0, v5 = 0, v6 = 0, v7 = 0, v8 = 0, v9 = 0;
  i32 v10 = 0, v11 = 0, v12 = 0, v13 = 0, v14 = 0, v15 = 0, v16 = 0, v17 = 0, v18 = 0, v19 = 0;
  i32 v20 = 0, v21 = 0, v22 = 0, v23 = 0, v24 = 0, v25 = 0, v26 = 0, v27 = 0, v28 = 0, v29 = 0;
  i32 v30 = 0, v31 = 0, v32 = 0, v33 = 0, v34 = 0, v35 = 0, v36 = 0, v37 = 0, v38 = 0, v39 = 0;
  i32 v40 = 0, v41 = 0, v42 = 0, v43 = 0, v44 = 0, v45 = 0, v46 = 0, v47 = 0, v48 = 0, v49 = 0;
  i32 v50 = 0, v51 = 0, v52 = 0, v53 = 0, v54 = 0, v55 = 0, v56 = 0, v57 = 0, v58 = 0, v59 = 0;
  i32 v60 = 0, v61 = 0, v62 = 0, v63 = 0, v64 = 0, v65 = 0, v66 = 0, v67 = 0, v68 = 0, v69 = 0;
  for (i32 k = 0; k < n; k = k + 1) {
    v69 = v68; v68 = v67; v67 = v66; v66 = v65; v65 = v64; v64 = v63; v63 = v62; v62 = v61;
    v61 = v60; v60 = v59; v59 = v58; v58 = v57; v57 = v56; v56 = v55; v55 = v54; v54 = v53;
    v53 = v52; v52 = v51; v51 = v50; v50 = v49; v49 = v48; v48 = v47; v47 = v46; v46 = v45;
    v45 = v44; v44 = v43; v43 = v42; v42 = v41; v41 = v40; v40 = v39; v39 = v38; v38 = v37;
    v37 = v36; v36 = v35; v35 = v34; v34 = v33; v33 = v32; v32 = v31; v31 = v30; v30 = v29;
    v29 = v28; v28 = v27; v27 = v26; v26 = v25; v25 = v24; v24 = v23; v23 = v22; v22 = v21;
    v21 = v20; v20 = v19; v19 = v18; v18 = v17; v17 = v16; v16 = v15; v15 = v14; v14 = v13;
    v13 = v12; v12 = v11; v11 = v10; v10 = v9; v9 = v8; v8 = v7; v7 = v6; v6 = v5;
    v5 = v4; v4 = v3; v3 = v2; v2 = v1; v1 = v0;
    v0 = v0 + 16;
  }
  store(o + arange(0, B) + v69, arange(0, B));
}

// CHECK: ok: delay on emu{{.*}}matches the interpreter
