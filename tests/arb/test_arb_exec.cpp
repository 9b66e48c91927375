/*
 * The lowering computes what the ARB specs say: lowered programs run in the
 * reference interpreter with constants filled from their bindings, and the
 * outputs are compared with values worked out by hand (aliasing XPD / SWZ /
 * SCS, relative addressing, position invariance, the three fog modes).
 */
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "arb/arb_test_util.h"
#include "common/exec.h"
#include "interp/interp.h"

namespace sbcc::arb::test {
namespace {

using V4 = std::array<float, 4>;
using Values = std::map<std::string, V4>;

/* Run one invocation: inputs and non-literal constants by their canonical
 * binding names; returns outputs by name, or an "error" entry. */
Values run(const char *text, const Values &inputs, const Values &consts)
{
   Diagnostics diags;
   auto p = parse_arb(text, "exec.arb", diags);
   if (!p) {
      ADD_FAILURE() << diags.str();
      return {};
   }
   auto exe = interp::make_reference_executable(p->shader, diags);
   if (!exe) {
      ADD_FAILURE() << diags.str() << tgsi::print_tgsi(p->shader);
      return {};
   }
   Resources res;
   res.constants.resize(1);
   for (const ParamBinding &b : p->params) {
      V4 v = {0, 0, 0, 0};
      if (b.kind == ParamBinding::Kind::Literal) {
         v = b.value;
      } else {
         auto it = consts.find(describe_binding(b));
         EXPECT_NE(it, consts.end()) << "no value for " << describe_binding(b);
         if (it != consts.end())
            v = it->second;
      }
      res.constants[0].push_back(vec4f(v[0], v[1], v[2], v[3]));
   }
   Batch batch;
   batch.lanes.resize(1);
   for (const IoBinding &in : p->inputs) {
      auto it = inputs.find(in.name);
      EXPECT_NE(it, inputs.end()) << "no value for " << in.name;
      V4 v = it != inputs.end() ? it->second : V4{0, 0, 0, 0};
      if (batch.lanes[0].inputs.size() <= size_t(in.index))
         batch.lanes[0].inputs.resize(size_t(in.index) + 1);
      batch.lanes[0].inputs[size_t(in.index)] = vec4f(v[0], v[1], v[2], v[3]);
   }
   RunResult r = exe->run(res, batch, RunLimits{});
   EXPECT_EQ(r.status, RunStatus::Ok) << r.message;
   Values out;
   for (const IoBinding &o : p->outputs) {
      const Vec4 &v = batch.lanes[0].outputs.at(size_t(o.index));
      out[o.name] = {u2f(v[0]), u2f(v[1]), u2f(v[2]), u2f(v[3])};
   }
   return out;
}

void expect_near(const V4 &got, const V4 &want, float tol = 1e-5f, int channels = 4)
{
   for (int c = 0; c < channels; c++)
      EXPECT_NEAR(got[c], want[c], tol) << "channel " << c;
}

TEST(ArbExec, CrossProductWithDestinationAliasingSources)
{
   auto out = run(R"(!!ARBvp1.0
TEMP a, b;
MOV a, vertex.position;
MOV b, vertex.normal;
XPD a, a, b;
XPD b.xyz, -b.zyxw, b;
MOV result.position, a;
MOV result.color, b;
END
)",
                  {{"vertex.position", {1, 2, 3, 0}}, {"vertex.normal", {4, 5, 6, 0}}}, {});
   /* (1,2,3) x (4,5,6) */
   expect_near(out["result.position"], {-3, 6, -3, 0}, 1e-5f, 3);
   /* -(6,5,4) x (4,5,6) = -((30-20), (16-36), (30-20)) */
   expect_near(out["result.color.front.primary"], {-10, 20, -10, 0}, 1e-5f, 3);
}

TEST(ArbExec, ExtendedSwizzleWithDestinationAliasingSource)
{
   auto out = run(R"(!!ARBvp1.0
TEMP t, u;
MOV t, vertex.position;
MOV u, t;
SWZ t, t, -y, x, 1, -0;
SWZ u.yw, -u, w, 0, x, 1;
MOV result.position, t;
MOV result.color, u;
END
)",
                  {{"vertex.position", {1, 2, 3, 4}}}, {});
   V4 t = out["result.position"];
   expect_near(t, {-2, 1, 1, 0});
   EXPECT_TRUE(std::signbit(t[3])) << "-0 component";
   /* Only y and w written: y = 0, w = 1 (constants are not negated). */
   expect_near(out["result.color.front.primary"], {1, 0, 3, 1});
}

TEST(ArbExec, SinCosWithDestinationAliasingSource)
{
   auto out = run(R"(!!ARBfp1.0
OPTION ARB_draw_buffers;
TEMP t, u;
MOV t, fragment.texcoord[0];
MOV u, t;
SCS t.xy, t.x;
SCS u.xy, u.y;
MOV result.color, t;
MOV result.color[1], u;
END
)",
                  {{"fragment.texcoord[0]", {0.5f, 1.25f, 7, 9}}}, {});
   expect_near(out["result.color[0]"], {std::cos(0.5f), std::sin(0.5f), 7, 9}, 1e-4f);
   expect_near(out["result.color[1]"], {std::cos(1.25f), std::sin(1.25f), 7, 9}, 1e-4f);
}

TEST(ArbExec, SubAbsAndLiteralOperands)
{
   auto out = run(R"(!!ARBvp1.0
TEMP t;
SUB t, vertex.position, -vertex.normal;
ABS result.color, -t;
MAD result.position, 2, {1, 2, 3}, -0.5;
END
)",
                  {{"vertex.position", {1, -2, 3, -4}}, {"vertex.normal", {-5, -6, 7, 8}}},
                  {});
   expect_near(out["result.color.front.primary"], {4, 8, 10, 4});
   expect_near(out["result.position"], {1.5f, 3.5f, 5.5f, 1.5f});
}

TEST(ArbExec, RelativeAddressingFloorsTheAddress)
{
   const char *prog = R"(!!ARBvp1.0
PARAM c[4] = { program.env[0..3] };
ADDRESS a;
ARL a.x, vertex.attrib[0].x;
MOV result.position, c[a.x + 1];
MOV result.color, c[a.x - 1];
END
)";
   Values env = {{"program.env[0]", {0, 0, 0, 0}},
                 {"program.env[1]", {1, 1, 1, 1}},
                 {"program.env[2]", {2, 2, 2, 2}},
                 {"program.env[3]", {3, 3, 3, 3}}};
   auto out = run(prog, {{"vertex.attrib[0]", {1.7f, 0, 0, 0}}}, env);
   expect_near(out["result.position"], {2, 2, 2, 2});
   expect_near(out["result.color.front.primary"], {0, 0, 0, 0});
   out = run(prog, {{"vertex.attrib[0]", {2.2f, 0, 0, 0}}}, env);
   expect_near(out["result.position"], {3, 3, 3, 3});
   expect_near(out["result.color.front.primary"], {1, 1, 1, 1});
}

TEST(ArbExec, PositionInvariantUsesMvpRows)
{
   auto out = run(R"(!!ARBvp1.0
OPTION ARB_position_invariant;
MOV result.color, vertex.color;
END
)",
                  {{"vertex.position", {1, 2, 3, 1}}, {"vertex.color.primary", {0.5f, 0, 0, 1}}},
                  {{"state.matrix.mvp.row[0]", {1, 0, 0, 10}},
                   {"state.matrix.mvp.row[1]", {0, 2, 0, 20}},
                   {"state.matrix.mvp.row[2]", {0, 0, 3, 30}},
                   {"state.matrix.mvp.row[3]", {1, 1, 1, 1}}});
   expect_near(out["result.position"], {11, 24, 39, 7});
   expect_near(out["result.color.front.primary"], {0.5f, 0, 0, 1});
}

/* state.fog.params = (density, start, end, 1/(end-start)). */
const Values kFogState = {{"state.fog.params", {0.1f, 10, 20, 0.1f}},
                          {"state.fog.color", {0, 0.5f, 1, 0.25f}}};

TEST(ArbExec, FogLinear)
{
   auto out = run(R"(!!ARBfp1.0
OPTION ARB_fog_linear;
MOV result.color, fragment.color;
END
)",
                  {{"fragment.color.primary", {1, 1, 1, 0.75f}}, {"fragment.fogcoord", {15, 0, 0, 0}}},
                  kFogState);
   /* f = (20 - 15) / 10 = 0.5; alpha is not fogged. */
   expect_near(out["result.color[0]"], {0.5f, 0.75f, 1, 0.75f});
}

TEST(ArbExec, FogExpAndExp2)
{
   Values in = {{"fragment.color.primary", {1, 0, 1, 1}}, {"fragment.fogcoord", {5, 0, 0, 0}}};
   auto out = run("!!ARBfp1.0\nOPTION ARB_fog_exp;\nMOV result.color, fragment.color;\nEND\n",
                  in, kFogState);
   float f = std::exp(-0.5f); /* e^-(d z) */
   expect_near(out["result.color[0]"], {f, (1 - f) * 0.5f, 1, 1}, 1e-4f);
   out = run("!!ARBfp1.0\nOPTION ARB_fog_exp2;\nMOV result.color, fragment.color;\nEND\n", in,
             kFogState);
   f = std::exp(-0.25f); /* e^-((d z)^2) */
   expect_near(out["result.color[0]"], {f, (1 - f) * 0.5f, 1, 1}, 1e-4f);
}

} // namespace
} // namespace sbcc::arb::test
