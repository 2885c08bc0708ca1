! 140 scalars assigned in one column kernel: more than the fixed-size sets that once
! dropped entries (and made the firstprivate search endless); translates in well under a second.
subroutine many(a, b, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: a(its:ite,kts:kte)
  real, intent(in) :: b(its:ite,kts:kte)
  integer :: i, k
  real :: t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, &
    t20, t21, t22, t23, t24, t25, t26, t27, t28, t29, t30, t31, t32, t33, t34, t35, t36, t37, t38, t39, &
    t40, t41, t42, t43, t44, t45, t46, t47, t48, t49, t50, t51, t52, t53, t54, t55, t56, t57, t58, t59, &
    t60, t61, t62, t63, t64, t65, t66, t67, t68, t69, t70, t71, t72, t73, t74, t75, t76, t77, t78, t79, &
    t80, t81, t82, t83, t84, t85, t86, t87, t88, t89, t90, t91, t92, t93, t94, t95, t96, t97, t98, t99, &
    t100, t101, t102, t103, t104, t105, t106, t107, t108, t109, t110, t111, t112, t113, t114, t115, t116, t117, t118, t119, &
    t120, t121, t122, t123, t124, t125, t126, t127, t128, t129, t130, t131, t132, t133, t134, t135, t136, t137, t138, t139
!$stencil region
  do k = kts, kte
    do i = its, ite
      t0 = b(i,k) * 1.0
      t1 = b(i,k) * 2.0
      t2 = b(i,k) * 3.0
      t3 = b(i,k) * 4.0
      t4 = b(i,k) * 5.0
      t5 = b(i,k) * 6.0
      t6 = b(i,k) * 7.0
      t7 = b(i,k) * 8.0
      t8 = b(i,k) * 9.0
      t9 = b(i,k) * 10.0
      t10 = b(i,k) * 11.0
      t11 = b(i,k) * 12.0
      t12 = b(i,k) * 13.0
      t13 = b(i,k) * 14.0
      t14 = b(i,k) * 15.0
      t15 = b(i,k) * 16.0
      t16 = b(i,k) * 17.0
      t17 = b(i,k) * 18.0
      t18 = b(i,k) * 19.0
      t19 = b(i,k) * 20.0
      t20 = b(i,k) * 21.0
      t21 = b(i,k) * 22.0
      t22 = b(i,k) * 23.0
      t23 = b(i,k) * 24.0
      t24 = b(i,k) * 25.0
      t25 = b(i,k) * 26.0
      t26 = b(i,k) * 27.0
      t27 = b(i,k) * 28.0
      t28 = b(i,k) * 29.0
      t29 = b(i,k) * 30.0
      t30 = b(i,k) * 31.0
      t31 = b(i,k) * 32.0
      t32 = b(i,k) * 33.0
      t33 = b(i,k) * 34.0
      t34 = b(i,k) * 35.0
      t35 = b(i,k) * 36.0
      t36 = b(i,k) * 37.0
      t37 = b(i,k) * 38.0
      t38 = b(i,k) * 39.0
      t39 = b(i,k) * 40.0
      t40 = b(i,k) * 41.0
      t41 = b(i,k) * 42.0
      t42 = b(i,k) * 43.0
      t43 = b(i,k) * 44.0
      t44 = b(i,k) * 45.0
      t45 = b(i,k) * 46.0
      t46 = b(i,k) * 47.0
      t47 = b(i,k) * 48.0
      t48 = b(i,k) * 49.0
      t49 = b(i,k) * 50.0
      t50 = b(i,k) * 51.0
      t51 = b(i,k) * 52.0
      t52 = b(i,k) * 53.0
      t53 = b(i,k) * 54.0
      t54 = b(i,k) * 55.0
      t55 = b(i,k) * 56.0
      t56 = b(i,k) * 57.0
      t57 = b(i,k) * 58.0
      t58 = b(i,k) * 59.0
      t59 = b(i,k) * 60.0
      t60 = b(i,k) * 61.0
      t61 = b(i,k) * 62.0
      t62 = b(i,k) * 63.0
      t63 = b(i,k) * 64.0
      t64 = b(i,k) * 65.0
      t65 = b(i,k) * 66.0
      t66 = b(i,k) * 67.0
      t67 = b(i,k) * 68.0
      t68 = b(i,k) * 69.0
      t69 = b(i,k) * 70.0
      t70 = b(i,k) * 71.0
      t71 = b(i,k) * 72.0
      t72 = b(i,k) * 73.0
      t73 = b(i,k) * 74.0
      t74 = b(i,k) * 75.0
      t75 = b(i,k) * 76.0
      t76 = b(i,k) * 77.0
      t77 = b(i,k) * 78.0
      t78 = b(i,k) * 79.0
      t79 = b(i,k) * 80.0
      t80 = b(i,k) * 81.0
      t81 = b(i,k) * 82.0
      t82 = b(i,k) * 83.0
      t83 = b(i,k) * 84.0
      t84 = b(i,k) * 85.0
      t85 = b(i,k) * 86.0
      t86 = b(i,k) * 87.0
      t87 = b(i,k) * 88.0
      t88 = b(i,k) * 89.0
      t89 = b(i,k) * 90.0
      t90 = b(i,k) * 91.0
      t91 = b(i,k) * 92.0
      t92 = b(i,k) * 93.0
      t93 = b(i,k) * 94.0
      t94 = b(i,k) * 95.0
      t95 = b(i,k) * 96.0
      t96 = b(i,k) * 97.0
      t97 = b(i,k) * 98.0
      t98 = b(i,k) * 99.0
      t99 = b(i,k) * 100.0
      t100 = b(i,k) * 101.0
      t101 = b(i,k) * 102.0
      t102 = b(i,k) * 103.0
      t103 = b(i,k) * 104.0
      t104 = b(i,k) * 105.0
      t105 = b(i,k) * 106.0
      t106 = b(i,k) * 107.0
      t107 = b(i,k) * 108.0
      t108 = b(i,k) * 109.0
      t109 = b(i,k) * 110.0
      t110 = b(i,k) * 111.0
      t111 = b(i,k) * 112.0
      t112 = b(i,k) * 113.0
      t113 = b(i,k) * 114.0
      t114 = b(i,k) * 115.0
      t115 = b(i,k) * 116.0
      t116 = b(i,k) * 117.0
      t117 = b(i,k) * 118.0
      t118 = b(i,k) * 119.0
      t119 = b(i,k) * 120.0
      t120 = b(i,k) * 121.0
      t121 = b(i,k) * 122.0
      t122 = b(i,k) * 123.0
      t123 = b(i,k) * 124.0
      t124 = b(i,k) * 125.0
      t125 = b(i,k) * 126.0
      t126 = b(i,k) * 127.0
      t127 = b(i,k) * 128.0
      t128 = b(i,k) * 129.0
      t129 = b(i,k) * 130.0
      t130 = b(i,k) * 131.0
      t131 = b(i,k) * 132.0
      t132 = b(i,k) * 133.0
      t133 = b(i,k) * 134.0
      t134 = b(i,k) * 135.0
      t135 = b(i,k) * 136.0
      t136 = b(i,k) * 137.0
      t137 = b(i,k) * 138.0
      t138 = b(i,k) * 139.0
      t139 = b(i,k) * 140.0
      a(i,k) = t0 + t7 + t14 + t21 + t28 + t35 + t42 + t49 + t56 &
             + t63 + t70 + t77 + t84 + t91 + t98 + t105 + t112 + t119 + t126 + t133
    end do
  end do
!$stencil end region
end subroutine
