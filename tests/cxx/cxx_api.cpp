// cxx_api.cpp -- PnetCDF's C++ API, every class and method family, built
// once against ncpario and once against PnetCDF (run_cxx_test.sh): both
// must write the same file and print the same transcript, which lists
// what each call returned and which exception class (and code) it threw.
//
//   mpirun -np N cxx_api OUT.nc
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <pnetcdf>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

using namespace PnetCDF;
using namespace PnetCDF::exceptions;

static int my_rank, nprocs;

static void say(const std::string &line) {
  if (my_rank == 0) std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

template <class T>
static std::string str(T v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// Runs stmt and says which exception class and code it threw, if any.
#define TRY(label, stmt)                                                  \
  do {                                                                    \
    try {                                                                 \
      stmt;                                                               \
      say(std::string(label) + ": ok");                                   \
    } catch (NcmpiException & e) {                                        \
      say(std::string(label) + ": " + typeid(e).name() + " " +            \
          str(e.errorCode()));                                            \
    }                                                                     \
  } while (0)

typedef std::vector<MPI_Offset> Offs;

static Offs offs(MPI_Offset a, MPI_Offset b) {
  Offs v(2);
  v[0] = a;
  v[1] = b;
  return v;
}
static Offs offs(MPI_Offset a, MPI_Offset b, MPI_Offset c) {
  Offs v(3);
  v[0] = a;
  v[1] = b;
  v[2] = c;
  return v;
}

static const int NX = 6, ROWS = 4;  // each my_rank: ROWS rows of NX

// This my_rank's block of a y-by-x variable, values set by my_rank and element.
template <class T>
static std::vector<T> block(int salt) {
  std::vector<T> v(ROWS * NX);
  for (int i = 0; i < ROWS * NX; i++)
    v[i] = static_cast<T>((my_rank * ROWS * NX + i + salt) % 100 + 1);
  return v;
}

// A whole variable read back by every my_rank, summed so the transcript
// stays short.
template <class T>
static void sayWhole(const NcmpiVar &v) {
  MPI_Offset n = 1;
  std::vector<NcmpiDim> dims = v.getDims();
  for (size_t i = 0; i < dims.size(); i++) n *= dims[i].getSize();
  std::vector<T> all(n);
  v.getVar_all(all.data());
  double sum = 0;
  for (MPI_Offset i = 0; i < n; i++) sum += static_cast<double>(all[i]) * (i % 7 + 1);
  say("whole " + v.getName() + " n=" + str(n) + " sum=" + str(sum));
}

static void sayLayout() {
  say("sizeof NcmpiGroup " + str(sizeof(NcmpiGroup)) + " NcmpiFile " +
      str(sizeof(NcmpiFile)) + " NcmpiDim " + str(sizeof(NcmpiDim)) +
      " NcmpiVar " + str(sizeof(NcmpiVar)) + " NcmpiType " +
      str(sizeof(NcmpiType)) + " NcmpiAtt " + str(sizeof(NcmpiVarAtt)) +
      " NcmpiException " + str(sizeof(NcmpiException)));
}

// ------------------------------------------------------------- define

static void defineFile(NcmpiFile &nc) {
  say("format " + str(nc.getFormat()) + " root " + str(nc.isRootGroup()) +
      " name " + nc.getName());
  NcmpiDim rec = nc.addDim("rec");
  NcmpiDim y = nc.addDim("y", ROWS * nprocs);
  NcmpiDim x = nc.addDim("x", NX);
  std::vector<NcmpiDim> yx;
  yx.push_back(y);
  yx.push_back(x);
  const NcmpiType *types[] = {&ncmpiByte,   &ncmpiChar,   &ncmpiShort,
                              &ncmpiInt,    &ncmpiFloat,  &ncmpiDouble,
                              &ncmpiUbyte,  &ncmpiUshort, &ncmpiUint,
                              &ncmpiInt64,  &ncmpiUint64};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    nc.addVar("v_" + types[i]->getName(), *types[i], yx);
  std::vector<std::string> ryx;
  ryx.push_back("rec");
  ryx.push_back("y");
  ryx.push_back("x");
  NcmpiVar r = nc.addVar("r", "double", ryx);
  nc.addVar("one", ncmpiInt, x);
  nc.addVar("scalar", ncmpiDouble);
  nc.addVar("k", "int", "x");
  nc.addVar("rng", ncmpiByte, yx);
  say("rec unlimited " + str(rec.isUnlimited()) + " y " + str(y.getSize()));

  nc.putAtt("title", std::string("C++ API test"));
  nc.putAtt("g_short", ncmpiShort, (short)-3);
  nc.putAtt("g_int", ncmpiInt, 42);
  nc.putAtt("g_long", ncmpiInt, 7L);
  nc.putAtt("g_float", ncmpiFloat, 1.5f);
  nc.putAtt("g_double", ncmpiDouble, 2.25);
  nc.putAtt("g_ushort", ncmpiUshort, (unsigned short)9);
  nc.putAtt("g_uint", ncmpiUint, 10u);
  nc.putAtt("g_ull", ncmpiUint64, 11ULL);
  nc.putAtt("g_ll", ncmpiInt64, -12LL);
  const double dv[3] = {1, 2, 3};
  const int iv[3] = {4, 5, 6};
  const unsigned char ub[2] = {200, 201};
  const signed char sb[2] = {-1, -2};
  nc.putAtt("g_dv", ncmpiDouble, 3, dv);
  nc.putAtt("g_iv", ncmpiShort, 3, iv);
  nc.putAtt("g_ub", ncmpiUbyte, 2, ub);
  nc.putAtt("g_sb", ncmpiByte, 2, sb);
  nc.putAtt("g_void", ncmpiInt, 3, (const void *)iv);
  r.putAtt("units", std::string("m/s"));
  r.putAtt("scale", ncmpiFloat, 0.5f);
  r.putAtt("range", ncmpiDouble, 2, dv);
  const long lv[2] = {-5, 5};
  r.putAtt("lrange", ncmpiInt, 2, lv);

  TRY("addDim duplicate", nc.addDim("y", 3));
  TRY("addVar unknown dim", nc.addVar("bad", "int", "nodim"));
  TRY("addVar null type", nc.addVar("bad", NcmpiType(), x));
  TRY("addVar unknown type", nc.addVar("bad", "notype", "x"));
  TRY("addGroup", nc.addGroup("g"));
  TRY("getParentGroup", nc.getParentGroup());
  TRY("getName full", nc.getName(true));
  TRY("getGroupCount", nc.getGroupCount());
  TRY("getDims children", nc.getDims(NcmpiGroup::Children));
  TRY("getVarCount parents", nc.getVarCount(NcmpiGroup::ParentsAndCurrent));
  TRY("getTypeCount", nc.getTypeCount());
  TRY("type getSize", ncmpiInt.getSize());
  TRY("addEnumType", nc.addEnumType("e", NcmpiEnumType::ncmpi_INT));
  TRY("addOpaqueType", nc.addOpaqueType("o", 4));
  TRY("addCompoundType", nc.addCompoundType("c", 8));
  TRY("setCompression", r.setCompression(true, true, 4));
  TRY("setCompression bad level", r.setCompression(false, true, 12));
  TRY("getEndianness", r.getEndianness());
  TRY("setChecksum", r.setChecksum(NcmpiVar::ncmpi_FLETCHER32));
  Offs chunks = offs(1, 2, 3);
  TRY("setChunking", r.setChunking(NcmpiVar::ncmpi_CHUNKED, chunks));

  NcmpiFile::FillMode old = NcmpiFile::Bad;
  nc.set_fill(NcmpiFile::Fill, &old);
  say("old fill mode " + str(old));
  double fill = -99;
  r.setFill(true, &fill);
  bool on = false;
  double got = 0;
  r.getFillModeParameters(on, got);
  say("fill " + str(on) + " " + str(got));
}

// -------------------------------------------------------------- write

static void writeData(NcmpiFile &nc) {
  MPI_Offset y0 = my_rank * ROWS;
  Offs start = offs(y0, 0), count = offs(ROWS, NX);

  std::vector<signed char> b = block<signed char>(1);
  nc.getVar("v_byte").putVar_all(start, count, b.data());
  std::vector<char> c = block<char>(2);
  for (size_t i = 0; i < c.size(); i++) c[i] = 'a' + c[i] % 26;
  nc.getVar("v_char").putVar_all(start, count, c.data());

  int req[4], st[4];
  std::vector<short> s = block<short>(3);
  nc.getVar("v_short").iputVar(start, count, s.data(), &req[0]);
  nc.Buffer_attach(ROWS * NX * sizeof(int) + 64);
  std::vector<int> iv = block<int>(4);
  nc.getVar("v_int").bputVar(start, count, iv.data(), &req[1]);
  int nreqs = 0;
  nc.Inq_nreqs(&nreqs);
  say("pending " + str(nreqs));
  nc.Wait_all(2, req, st);
  say("statuses " + str(st[0]) + " " + str(st[1]));
  MPI_Offset usage = -1, bsize = -1;
  nc.Inq_buffer_usage(&usage);
  nc.Inq_buffer_size(&bsize);
  say("buffer " + str(usage) + " " + str(bsize));
  nc.Buffer_detach();

  // floats: even columns, then odd columns, through a stride
  std::vector<float> f = block<float>(5);
  std::vector<float> half(ROWS * NX / 2);
  for (int p = 0; p < 2; p++) {
    for (int i = 0; i < ROWS; i++)
      for (int j = 0; j < NX / 2; j++) half[i * NX / 2 + j] = f[i * NX + 2 * j + p];
    nc.getVar("v_float").putVar_all(offs(y0, p), offs(ROWS, NX / 2), offs(1, 2),
                                   half.data());
  }
  // doubles from a transposed buffer, through an imap
  std::vector<double> d = block<double>(6), dt(ROWS * NX);
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < NX; j++) dt[j * ROWS + i] = d[i * NX + j];
  nc.getVar("v_double").putVar_all(start, count, offs(1, 1), offs(1, ROWS),
                                  dt.data());
  // ubyte: two row ranges in one varn call
  std::vector<unsigned char> u = block<unsigned char>(7);
  MPI_Offset s0[2] = {y0, 0}, c0[2] = {1, NX}, s1[2] = {y0 + 1, 0},
             c1[2] = {ROWS - 1, NX};
  MPI_Offset *starts[2] = {s0, s1}, *counts[2] = {c0, c1};
  nc.getVar("v_ubyte").putVarn_all(2, starts, counts, u.data());
  // ushort: the flexible form, with an MPI datatype
  std::vector<unsigned short> us = block<unsigned short>(8);
  nc.getVar("v_ushort").putVar_all(start, count, us.data(), ROWS * NX,
                                  MPI_UNSIGNED_SHORT);
  // uint: vard with a subarray filetype
  std::vector<unsigned int> ui = block<unsigned int>(9);
  int gsizes[2] = {ROWS * nprocs, NX}, subs[2] = {ROWS, NX},
      starts2[2] = {(int)y0, 0};
  MPI_Datatype ft;
  MPI_Type_create_subarray(2, gsizes, subs, starts2, MPI_ORDER_C,
                           MPI_UNSIGNED, &ft);
  MPI_Type_commit(&ft);
  nc.getVar("v_uint").putVard_all(ft, ui.data(), ROWS * NX, MPI_UNSIGNED);
  // int64: iputVarn
  std::vector<long long> ll = block<long long>(10);
  nc.getVar("v_int64").iputVarn(2, starts, counts, ll.data(), &req[0]);
  nc.Wait_all(1, req, st);
  // the record variable, two records
  std::vector<double> rv = block<double>(11);
  NcmpiVar r = nc.getVar("r");
  for (int rec = 0; rec < 2; rec++)
    r.putVar_all(offs(rec, y0, 0), offs(1, ROWS, NX), rv.data());
  r.fillRec(2);
  // whole-variable puts: every my_rank the same values
  std::vector<int> k(NX);
  for (int i = 0; i < NX; i++) k[i] = 10 * i;
  nc.getVar("k").putVar_all(k.data());
  double sc = 3.75;
  nc.getVar("scalar").putVar_all(&sc);
  // long: my_rank 0 writes, the others take part with nothing
  std::vector<long> one(NX, 77);
  nc.getVar("one").putVar_all(Offs(1, 0),
                              Offs(1, my_rank == 0 ? NX : 0), one.data());
  TRY("range", nc.getVar("rng").putVar_all(start, count,
                                           block<int>(250).data()));

  // independent mode: var1 puts and uint64
  ncmpi_begin_indep_data(nc.getId());
  std::vector<unsigned long long> u64 = block<unsigned long long>(12);
  nc.getVar("v_uint64").putVar(start, count, u64.data());
  if (my_rank == 0) {
    nc.getVar("k").putVar(Offs(1, 2), 99);
    unsigned char seven = 7;
    nc.getVar("v_ubyte").putVar(offs(0, 0), &seven);
    nc.getVar("scalar").putVar(Offs(), 4.5);
  }
  ncmpi_end_indep_data(nc.getId());
  MPI_Type_free(&ft);
}

// --------------------------------------------------------------- read

static void readData(NcmpiFile &nc) {
  sayWhole<signed char>(nc.getVar("v_byte"));
  sayWhole<char>(nc.getVar("v_char"));
  sayWhole<short>(nc.getVar("v_short"));
  sayWhole<int>(nc.getVar("v_int"));
  sayWhole<float>(nc.getVar("v_float"));
  sayWhole<double>(nc.getVar("v_double"));
  sayWhole<unsigned char>(nc.getVar("v_ubyte"));
  sayWhole<unsigned short>(nc.getVar("v_ushort"));
  sayWhole<unsigned int>(nc.getVar("v_uint"));
  sayWhole<long long>(nc.getVar("v_int64"));
  sayWhole<unsigned long long>(nc.getVar("v_uint64"));
  sayWhole<double>(nc.getVar("r"));
  sayWhole<long>(nc.getVar("one"));
  sayWhole<int>(nc.getVar("k"));
  sayWhole<double>(nc.getVar("scalar"));
  sayWhole<signed char>(nc.getVar("rng"));

  MPI_Offset y0 = my_rank * ROWS;
  int req[3], st[3];
  std::vector<double> blk(ROWS * NX);
  nc.getVar("v_double").igetVar(offs(y0, 0), offs(ROWS, NX), blk.data(),
                                &req[0]);
  int kv = 0;
  nc.getVar("k").igetVar(Offs(1, 2), &kv, &req[1]);
  std::vector<short> sv(ROWS * NX);
  MPI_Offset s0[2] = {y0, 0}, c0[2] = {ROWS, NX};
  MPI_Offset *starts[1] = {s0}, *counts[1] = {c0};
  nc.getVar("v_short").igetVarn(1, starts, counts, sv.data(), &req[2]);
  nc.Wait_all(3, req, st);
  say("iget k[2]=" + str(kv) + " statuses " + str(st[0]) + str(st[1]) +
      str(st[2]));
  double bs = 0;
  for (int i = 0; i < ROWS * NX; i++) bs += blk[i] * (i + 1) + sv[i];
  std::vector<double> all(nprocs);
  MPI_Gather(&bs, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int p = 0; p < nprocs; p++) say("my_rank " + str(p) + " block " + str(all[p]));

  std::vector<float> fs(ROWS * NX / 2);
  nc.getVar("v_float").getVar_all(offs(y0, 1), offs(ROWS, NX / 2), offs(1, 2),
                                  fs.data());
  std::vector<double> tr(ROWS * NX);
  nc.getVar("v_double").getVar_all(offs(y0, 0), offs(ROWS, NX), offs(1, 1),
                                   offs(1, ROWS), tr.data());
  std::vector<unsigned char> ub(ROWS * NX);
  nc.getVar("v_ubyte").getVarn_all(1, starts, counts, ub.data());
  std::vector<unsigned short> us(ROWS * NX);
  nc.getVar("v_ushort").getVar_all(offs(y0, 0), offs(ROWS, NX), us.data(),
                                   ROWS * NX, MPI_UNSIGNED_SHORT);
  double t = 0;
  for (int i = 0; i < ROWS * NX / 2; i++) t += fs[i];
  for (int i = 0; i < ROWS * NX; i++) t += tr[i] * i + ub[i] + us[i];
  say("read forms rank0 " + str(t));

  ncmpi_begin_indep_data(nc.getId());
  double sc = 0;
  nc.getVar("scalar").getVar(&sc);
  int k5 = 0;
  nc.getVar("k").getVar(Offs(1, 5), &k5);
  ncmpi_end_indep_data(nc.getId());
  say("indep scalar " + str(sc) + " k[5] " + str(k5));

  TRY("bad coords", nc.getVar("v_int").getVar_all(offs(ROWS * nprocs + 1, 0),
                                                  offs(1, 1), &kv));
  TRY("text into int", nc.getVar("v_int").putVar_all(offs(0, 0), offs(0, 0),
                                                     "x"));
  TRY("no such attribute", nc.getVar("r").getAtt("nope"));
  TRY("dim out of range", nc.getVar("r").getDim(7));
  TRY("not a variable", NcmpiVar(nc, 999).getName());
}

// ---------------------------------------------------------- inquiries

static void inquire(NcmpiFile &nc) {
  say("vars " + str(nc.getVarCount()) + " rec " + str(nc.getRecVarCount()) +
      " fix " + str(nc.getFixVarCount()) + " recsize " +
      str(nc.getRecSize()) + " dims " + str(nc.getDimCount()) + " atts " +
      str(nc.getAttCount()));
  std::multimap<std::string, NcmpiVar> vars = nc.getVars();
  std::string names;
  for (std::multimap<std::string, NcmpiVar>::iterator it = vars.begin();
       it != vars.end(); ++it)
    names += it->first + "(" + it->second.getType().getName() + "," +
             str(it->second.getDimCount()) + ") ";
  say("variables " + names);
  std::multimap<std::string, NcmpiDim> dims = nc.getDims();
  for (std::multimap<std::string, NcmpiDim>::iterator it = dims.begin();
       it != dims.end(); ++it)
    say("dim " + it->first + " " + str(it->second.getSize()) + " " +
        str(it->second.isUnlimited()));
  std::multimap<std::string, NcmpiGroupAtt> atts = nc.getAtts();
  for (std::multimap<std::string, NcmpiGroupAtt>::iterator it = atts.begin();
       it != atts.end(); ++it) {
    double vals[4] = {0, 0, 0, 0};
    std::string text;
    if (it->second.getType() == ncmpiChar)
      it->second.getValues(text);
    else
      it->second.getValues(vals);
    say("att " + it->first + " " + it->second.getType().getName() + " len " +
        str(it->second.getAttLength()) + " " + text + str(vals[0]) + " " +
        str(vals[1]));
  }
  NcmpiVar r = nc.getVar("r");
  std::map<std::string, NcmpiVarAtt> vatts = r.getAtts();
  for (std::map<std::string, NcmpiVarAtt>::iterator it = vatts.begin();
       it != vatts.end(); ++it)
    say("var att " + it->first + " of " + it->second.getParentVar().getName());
  long lr[2] = {0, 0};
  r.getAtt("lrange").getValues(lr);
  say("lrange " + str(lr[0]) + " " + str(lr[1]) + " class " +
      r.getType().getTypeClassName() + " dim0 " + r.getDim(0).getName());
  say("null var " + str(nc.getVar("nope").isNull()) + " null dim " +
      str(nc.getDim("nope").isNull()) + " null att " +
      str(nc.getAtt("nope").isNull()) + " type by name " +
      nc.getType("uint64").getName());
  say("equality " + str(r == nc.getVar("r")) + str(r != nc.getVar("k")) +
      str(nc.getDim("x") == r.getDim(2)) + str(NcmpiType(NC_INT) == ncmpiInt) +
      str(nc.getAtt("title") == nc.getAtt("title")));
  MPI_Offset hs, he, off;
  nc.Inq_header_size(&hs);
  nc.Inq_header_extent(&he);
  r.Inq_file_offset(&off);
  say("header " + str(hs) + " " + str(he) + " r at " + str(off));
  int len = 0;
  nc.Inq_path(&len, NULL);
  std::vector<char> path(len + 1);
  nc.Inq_path(&len, path.data());
  say("path length " + str(len));
  MPI_Info info;
  nc.Inq_file_info(&info);
  MPI_Info_free(&info);
}

// ------------------------------------------------- the remaining forms

static void moreForms(NcmpiFile &nc) {
  MPI_Offset y0 = my_rank * ROWS;
  NcmpiVar vi = nc.getVar("v_int"), vd = nc.getVar("v_double");
  // one element: collective get, nonblocking and buffered puts
  int e = 0;
  vi.getVar_all(offs(y0, 1), &e);
  int req[3], st[3];
  vi.iputVar(offs(y0, 1), e + 1, &req[0]);
  nc.Buffer_attach(64);
  vd.bputVar(offs(y0, 2), 0.5, &req[1]);
  TRY("independent wait in collective mode", nc.Wait(2, req, st));
  ncmpi_begin_indep_data(nc.getId());
  nc.Wait(2, req, st);
  ncmpi_end_indep_data(nc.getId());
  nc.Buffer_detach();
  // a posted get, cancelled
  double junk[ROWS * NX];
  vd.igetVar(offs(y0, 0), offs(ROWS, NX), junk, &req[2]);
  nc.Cancel(1, &req[2], &st[2]);
  say("cancel status " + str(st[2]) + " wait " + str(st[0]) + str(st[1]));
  // vard read, varn in independent mode
  int gsizes[2] = {ROWS * nprocs, NX}, subs[2] = {ROWS, NX},
      first[2] = {(int)y0, 0};
  MPI_Datatype ft;
  MPI_Type_create_subarray(2, gsizes, subs, first, MPI_ORDER_C, MPI_INT, &ft);
  MPI_Type_commit(&ft);
  std::vector<int> back(ROWS * NX);
  vi.getVard_all(ft, back.data(), ROWS * NX, MPI_INT);
  MPI_Type_free(&ft);
  ncmpi_begin_indep_data(nc.getId());
  MPI_Offset s0[2] = {y0, 0}, c0[2] = {ROWS, NX};
  MPI_Offset *starts[1] = {s0}, *counts[1] = {c0};
  vi.putVarn(1, starts, counts, back.data());
  std::vector<int> again(ROWS * NX);
  vi.getVarn(1, starts, counts, again.data());
  ncmpi_end_indep_data(nc.getId());
  nc.flush();
  say("vard/varn agree " + str(back == again) + " e " + str(e));
  MPI_Offset put = 0, got = 0;
  nc.Inq_put_size(&put);
  nc.Inq_get_size(&got);
  say("moved put>0 " + str(put > 0) + " get>0 " + str(got > 0));

  // renames, names and sets
  nc.getDim("x").rename("z");
  nc.getVar("k").rename("q");
  say("renamed " + nc.getDim("z").getName() + " " +
      nc.getVar("q").getName() + " vars named r " +
      str(nc.getVars("r").size()) + " dims named y " +
      str(nc.getDims("y").size()) + " atts named title " +
      str(nc.getAtts("title").size()) + " parent " +
      str(vi.getParentGroup() == nc) + str(nc.getDim("y").getParentGroup() == nc) +
      str(nc.getAtt("title").getParentGroup() == nc));
  TRY("enddef in data mode", nc.enddef());
  TRY("getGroups by name", nc.getGroups("g"));
  TRY("getGroup parents", nc.getGroup("g", NcmpiGroup::ParentsGrps));
  TRY("getTypes of a class", nc.getTypes(NcmpiType::ncmpi_ENUM));
  TRY("getType of a name", nc.getType("mytype"));
  TRY("enum from int", NcmpiEnumType e2(ncmpiInt));
  TRY("vlen from double", NcmpiVlenType v2(ncmpiDouble));
  TRY("opaque from float", NcmpiOpaqueType o2(ncmpiFloat));
  NcmpiCompoundType c2(ncmpiInt);
  TRY("compound member count", c2.getMemberCount());
  TRY("getChunkingParameters", {
    NcmpiVar::ChunkMode m;
    Offs sizes;
    vd.getChunkingParameters(m, sizes);
  });
  TRY("getTypeClassName", say(ncmpiUint64.getTypeClassName() + " " +
                              NcmpiType(NC_CHAR).getName()));
  // exceptions copy as values
  try {
    vi.getVar_all(offs(-1, 0), offs(1, 1), &e);
  } catch (NcmpiException &caught) {
    NcmpiException copy(caught);
    NcmpiException assigned("x", "y", 1);
    assigned = copy;
    say(std::string("copied ") + typeid(copy).name() + " " +
        str(assigned.errorCode()) + " what non-empty " +
        str(std::strlen(assigned.what()) > 0));
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (argc != 2) {
    if (my_rank == 0) std::fprintf(stderr, "usage: cxx_api OUT.nc\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  std::string path = argv[1];
  sayLayout();
  try {
    {
      NcmpiFile nc(MPI_COMM_WORLD, path, NcmpiFile::replace,
                   NcmpiFile::classic5);
      defineFile(nc);
      writeData(nc);
      nc.sync();
      readData(nc);
      inquire(nc);
      moreForms(nc);
    }
    {
      NcmpiFile nc(MPI_COMM_WORLD, path, NcmpiFile::read);
      say("reopened format " + str(nc.getFormat()));
      sayWhole<double>(nc.getVar("r"));
      TRY("put read-only", nc.getVar("q").putVar_all(Offs(1, 0), Offs(1, 1),
                                                     &my_rank));
    }
    TRY("newFile on existing",
        NcmpiFile(MPI_COMM_WORLD, path, NcmpiFile::newFile));
    TRY("open missing", NcmpiFile(MPI_COMM_WORLD, path + ".missing",
                                  NcmpiFile::read));
    TRY("bad format", NcmpiFile(MPI_COMM_WORLD, path + ".bad",
                                NcmpiFile::replace, NcmpiFile::BadFormat));
  } catch (NcmpiException &e) {
    std::printf("my_rank %d: unexpected %s %d\n%s\n", my_rank, typeid(e).name(),
                e.errorCode(), e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return 0;
}
